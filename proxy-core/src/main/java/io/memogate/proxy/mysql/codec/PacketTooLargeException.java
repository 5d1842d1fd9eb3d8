package io.memogate.proxy.mysql.codec;

import io.netty.handler.codec.TooLongFrameException;

/** A client sent a packet longer than limits.maxMessageBytes: the session refuses it and ends. */
public final class PacketTooLargeException extends TooLongFrameException {

    private final int limit;
    private final int sequenceId;

    PacketTooLargeException(long length, int limit, int sequenceId) {
        super("a packet of more than " + length + " bytes is over limits.maxMessageBytes (" + limit + ")");
        this.limit = limit;
        this.sequenceId = sequenceId;
    }

    public int limit() {
        return limit;
    }

    /** The sequence id of the packet's last part read: the answer takes the next. */
    public int sequenceId() {
        return sequenceId;
    }
}
