package io.memogate.bench.storm.load;

import java.util.Optional;

/**
 * One try of one submission: connect if needed, run, read every row.
 *
 * @param attempt 1 for the first try, up to 1 + retries
 * @param failure empty when it succeeded
 */
public record Attempt(int client, long submission, int attempt, String template, long startNanos, long endNanos,
                      Optional<Failure> failure) {

    public boolean succeeded() {
        return failure.isEmpty();
    }
}
