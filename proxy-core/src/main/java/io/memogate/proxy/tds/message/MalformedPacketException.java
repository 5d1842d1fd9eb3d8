package io.memogate.proxy.tds.message;

/** A packet or message that breaks TDS: the session answers with an ERROR token where it can, and ends. */
public final class MalformedPacketException extends RuntimeException {

    public MalformedPacketException(String message) {
        super(message, null, false, false);
    }
}
