package io.memogate.proxy.mysql.message;

/** A packet that breaks the protocol: the session answers with an ERR (08S01) and ends. */
public final class MalformedPacketException extends RuntimeException {

    public MalformedPacketException(String message) {
        super(message, null, false, false);
    }
}
