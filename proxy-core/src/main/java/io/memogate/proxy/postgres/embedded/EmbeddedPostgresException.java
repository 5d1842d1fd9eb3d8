package io.memogate.proxy.postgres.embedded;

import java.util.OptionalInt;

/**
 * The embedded server could not be installed, started, or stopped. Unchecked because callers (the demo
 * command, test extensions) cannot recover and only report it; the message says what failed and, for
 * server failures, quotes the end of the server log.
 */
public final class EmbeddedPostgresException extends RuntimeException {

    private final OptionalInt portInUse;

    public EmbeddedPostgresException(String message) {
        this(message, (Throwable) null);
    }

    public EmbeddedPostgresException(String message, Throwable cause) {
        super(message, cause);
        this.portInUse = OptionalInt.empty();
    }

    /** The server could not start because another process holds the port it was told to use. */
    EmbeddedPostgresException(String message, int portInUse) {
        super(message);
        this.portInUse = OptionalInt.of(portInUse);
    }

    /** The port that was asked for and found taken, when that is why the server did not start. */
    public OptionalInt portInUse() {
        return portInUse;
    }
}
