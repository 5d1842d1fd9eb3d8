package io.memogate.proxy.pg.codec;

import io.netty.handler.codec.CorruptedFrameException;

/**
 * A client message refused on its header (its type, or a length over PostgreSQL's bound for that type), with
 * a message that says in full what is wrong: unlike a bare {@link CorruptedFrameException}, it is not a
 * length that cannot hold itself, and is not described as one.
 */
public final class BadHeaderException extends CorruptedFrameException {

    BadHeaderException(String message) {
        super(message);
    }
}
