package io.memogate.proxy.mysql.message;

import io.memogate.proxy.session.MalformedInputException;

/** A packet that breaks the protocol: the session answers with an ERR (08S01) and ends. */
public final class MalformedPacketException extends MalformedInputException {

    public MalformedPacketException(String message) {
        super(message);
    }
}
