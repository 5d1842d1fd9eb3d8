package io.memogate.proxy.pg.codec;

import io.memogate.proxy.pg.message.PgWire;
import io.netty.buffer.ByteBuf;

/**
 * The message types a client may send after its startup packet, and PostgreSQL's bound on the short
 * ones (postgres.c, SocketBackend: PQ_SMALL_MESSAGE_LIMIT). Checked on a message's header, as the server
 * checks them: a byte stream that is out of step (an SSLRequest sent again, a length word read from
 * text) gets its 08P01 at once, not after the proxy has waited, and buffered, for a body its length
 * word promised. Which types each phase of a session accepts is that phase's business; a type here is
 * only one some phase does.
 */
final class FrontendTypes {

    /** PostgreSQL's PQ_SMALL_MESSAGE_LIMIT: Sync, Flush, Describe, Execute, Close and Terminate are no longer. */
    static final int SMALL_MESSAGE_LIMIT = 10_000;

    /** Terminate, Close, Describe, Execute, Flush, Sync. */
    private static final String SMALL = "XCDEHS";
    /** Bind, CopyDone, CopyData, CopyFail, FunctionCall, password and SASL answers, Parse, Query. */
    private static final String LARGE = "BcdfFpPQ";

    private static final boolean[] KNOWN = new boolean[256];
    private static final boolean[] SHORT = new boolean[256];

    static {
        for (char type : (SMALL + LARGE).toCharArray()) {
            KNOWN[type] = true;
        }
        for (char type : SMALL.toCharArray()) {
            SHORT[type] = true;
        }
    }

    private FrontendTypes() {}

    /**
     * Fails on a type no client sends; like {@link FrameLength#check}, it drops what is buffered first, since
     * the connection is closing.
     */
    static void checkType(ByteBuf in, byte type) {
        if (!KNOWN[type & 0xff]) {
            in.skipBytes(in.readableBytes());
            throw new BadHeaderException("unknown message type '" + PgWire.printableType(type) + "'");
        }
    }

    /** Fails on a short type whose length is over PostgreSQL's bound for it, dropping what is buffered. */
    static void checkLength(ByteBuf in, byte type, int length) {
        if (SHORT[type & 0xff] && length > SMALL_MESSAGE_LIMIT) {
            in.skipBytes(in.readableBytes());
            throw new BadHeaderException("invalid message length: a '" + (char) type + "' message of " + length
                    + " bytes, where PostgreSQL takes at most " + SMALL_MESSAGE_LIMIT);
        }
    }
}
