package io.memogate.proxy.mysql.codec;

import io.netty.handler.codec.TooLongFrameException;

/** A client sent a packet longer than limits.maxMessageBytes: the session refuses it and ends. */
public final class PacketTooLargeException extends TooLongFrameException {

    private final int limit;

    PacketTooLargeException(long length, int limit) {
        super("a payload of " + length + " bytes or more is over limits.maxMessageBytes (" + limit + ")");
        this.limit = limit;
    }

    public int limit() {
        return limit;
    }
}
