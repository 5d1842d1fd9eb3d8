package io.memogate.proxy.pg.codec;

import io.memogate.proxy.pg.message.PgWire;
import io.memogate.proxy.pg.message.frontend.Bind;
import io.memogate.proxy.pg.message.frontend.Close;
import io.memogate.proxy.pg.message.frontend.CopyDone;
import io.memogate.proxy.pg.message.frontend.CopyFail;
import io.memogate.proxy.pg.message.frontend.Describe;
import io.memogate.proxy.pg.message.frontend.Execute;
import io.memogate.proxy.pg.message.frontend.Flush;
import io.memogate.proxy.pg.message.frontend.FrontendType;
import io.memogate.proxy.pg.message.frontend.Parse;
import io.memogate.proxy.pg.message.frontend.PasswordResponse;
import io.memogate.proxy.pg.message.frontend.Query;
import io.memogate.proxy.pg.message.frontend.Sync;
import io.memogate.proxy.pg.message.frontend.Terminate;
import io.netty.buffer.ByteBuf;

/**
 * The message types a client may send after its startup packet, and PostgreSQL's bound on the short
 * ones (postgres.c, SocketBackend: PQ_SMALL_MESSAGE_LIMIT). Checked on a message's header, as the server
 * checks them: a byte stream that is out of step (an SSLRequest sent again, a length word read from
 * text) gets its 08P01 at once, not after the proxy has waited, and buffered, for a body its length
 * word promised. Which types each phase of a session accepts is that phase's business; a type here is
 * only one some phase does.
 */
final class FrontendTypeCheck {

    /** PostgreSQL's PQ_SMALL_MESSAGE_LIMIT: Sync, Flush, Describe, Execute, Close and Terminate are no longer. */
    static final int SMALL_MESSAGE_LIMIT = 10_000;

    /** The short ones, bounded by {@link #SMALL_MESSAGE_LIMIT}. */
    private static final byte[] SMALL = {
        Terminate.TYPE, Close.TYPE, Describe.TYPE, Execute.TYPE, Flush.TYPE, Sync.TYPE};
    /** The rest; {@link PasswordResponse#TYPE} is the type of every password and SASL answer. */
    private static final byte[] LARGE = {
        Bind.TYPE, CopyDone.TYPE, FrontendType.COPY_DATA, CopyFail.TYPE, FrontendType.FUNCTION_CALL,
        PasswordResponse.TYPE, Parse.TYPE, Query.TYPE};

    private static final boolean[] KNOWN = new boolean[256];
    private static final boolean[] SHORT = new boolean[256];

    static {
        for (byte type : SMALL) {
            KNOWN[type] = true;
            SHORT[type] = true;
        }
        for (byte type : LARGE) {
            KNOWN[type] = true;
        }
    }

    private FrontendTypeCheck() {}

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
            throw new BadHeaderException("invalid message length: a '" + PgWire.printableType(type) + "' message of " + length
                    + " bytes, where PostgreSQL takes at most " + SMALL_MESSAGE_LIMIT);
        }
    }
}
