package io.memogate.proxy.tds.message;

import io.memogate.proxy.session.MalformedInputException;

/** A packet or message that breaks TDS: the session answers with an ERROR token where it can, and ends. */
public final class MalformedPacketException extends MalformedInputException {

    public MalformedPacketException(String message) {
        super(message);
    }
}
