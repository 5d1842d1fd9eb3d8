package io.memogate.broker.probe;

import java.util.Objects;

/**
 * The release a server runs; see {@link MemorySnapshot} for what each kind of server reports.
 *
 * @param text   as the server names it, for people (PostgreSQL: "18.1")
 * @param number a number that orders releases, for code (PostgreSQL: 180001)
 */
public record ServerVersion(String text, int number) {

    public ServerVersion {
        Objects.requireNonNull(text, "text");
        if (number <= 0) {
            throw new IllegalArgumentException("number must be > 0, was " + number);
        }
    }
}
