package io.memogate.bench.storm.load;

/**
 * One query as its user sees it: from the first attempt's start until it succeeded or the retries ran out.
 *
 * @param succeeded false when every attempt failed
 */
public record Submission(int client, long submission, String template, long startNanos, long endNanos, int attempts,
                         boolean succeeded) {

    public long latencyNanos() {
        return endNanos - startNanos;
    }
}
