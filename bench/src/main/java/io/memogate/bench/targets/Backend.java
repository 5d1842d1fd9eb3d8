package io.memogate.bench.targets;

import java.util.Objects;

/** The PostgreSQL server every target leads to, and the login the benchmark uses on it. */
public record Backend(String host, int port, String database, String user, String password) {

    public Backend {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
    }
}
