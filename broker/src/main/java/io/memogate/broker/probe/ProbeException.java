package io.memogate.broker.probe;

/**
 * A poll of the server's memory state failed: the server is unreachable, a query failed, the monitoring
 * user lacks a right, or a value could not be read. The message says which, for an operator to act on;
 * the broker shows it in its state and logs it.
 */
public final class ProbeException extends Exception {

    public ProbeException(String message) {
        super(message);
    }

    public ProbeException(String message, Throwable cause) {
        super(message, cause);
    }
}
