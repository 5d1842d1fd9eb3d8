package io.memogate.bench.storm.load;

import java.util.Optional;

/**
 * One try of one submission: connect if needed, run, read every row.
 *
 * @param attempt 1 for the first try, up to 1 + retries
 * @param failure empty when it succeeded
 * @param degradedTo the settings the proxy's NOTICE said the statement was planned with instead of the session's
 *     (admission.degrade); empty when it ran under its own
 */
public record Attempt(int client, long submission, int attempt, String template, long startNanos, long endNanos,
                      Optional<Failure> failure, Optional<String> degradedTo) {

    /** An attempt that ran under its session's own settings. */
    public Attempt(int client, long submission, int attempt, String template, long startNanos, long endNanos,
                   Optional<Failure> failure) {
        this(client, submission, attempt, template, startNanos, endNanos, failure, Optional.empty());
    }

    public boolean succeeded() {
        return failure.isEmpty();
    }
}
