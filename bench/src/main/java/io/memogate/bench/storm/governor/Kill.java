package io.memogate.bench.storm.governor;

/**
 * One SIGKILL the governor sent.
 *
 * @param atNanos     when, on the governor's clock
 * @param pid         the backend killed
 * @param victimBytes its private memory then
 * @param totalBytes  the server's total private memory then, over the limit
 */
public record Kill(long atNanos, long pid, long victimBytes, long totalBytes) {
}
