package io.memogate.proxy.embedded;

/**
 * The embedded server could not be installed, started, or stopped. Unchecked because callers (the demo
 * command, test extensions) cannot recover and only report it; the message says what failed and, for
 * server failures, quotes the end of the server log.
 */
public final class EmbeddedPostgresException extends RuntimeException {

    public EmbeddedPostgresException(String message) {
        super(message);
    }

    public EmbeddedPostgresException(String message, Throwable cause) {
        super(message, cause);
    }
}
