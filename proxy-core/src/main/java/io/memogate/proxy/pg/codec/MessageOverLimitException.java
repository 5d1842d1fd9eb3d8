package io.memogate.proxy.pg.codec;

import io.netty.handler.codec.TooLongFrameException;

/**
 * A client message longer than {@code limits.maxMessageBytes} but no longer than PostgreSQL itself takes:
 * most likely a real statement (a Query with a long IN list), which the limit refused. Told apart from a
 * length no PostgreSQL message has (bytes of another protocol, a broken stream), so that the client's
 * hint is the setting to raise rather than "not a valid PostgreSQL message".
 */
public final class MessageOverLimitException extends TooLongFrameException {

    private final int limit;

    MessageOverLimitException(int length, int limit) {
        super("message of " + length + " bytes exceeds limits.maxMessageBytes (" + limit + ")");
        this.limit = limit;
    }

    /** limits.maxMessageBytes as this session took it. */
    public int limit() {
        return limit;
    }
}
