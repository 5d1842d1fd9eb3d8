package io.memogate.proxy.pg.message.frontend;

import io.memogate.proxy.pg.message.PgWire;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/** Query ('Q'): a simple-protocol query string, possibly several statements. An admission point. */
public record Query(String sql) implements FrontendMessage {

    public static final byte TYPE = 'Q';

    public static Query decode(ByteBuf frame) {
        return new Query(sql(frame));
    }

    /**
     * The query string, read as {@link #decode} reads it, with no slice of the frame nor record made around it:
     * the admission path reads every Query's text.
     *
     * @throws io.memogate.proxy.pg.message.MalformedMessageException as decode
     */
    public static String sql(ByteBuf frame) {
        int start = PgWire.bodyStart(frame);
        int length = PgWire.skipCString(frame, start, PgWire.bodyEnd(frame, TYPE)) - 1 - start;
        return frame.toString(start, length, StandardCharsets.UTF_8);
    }

    /**
     * Checks the frame as {@link #decode} would, without making the String: for a proxy that forwards
     * the query unread but must refuse a malformed one all the same.
     *
     * @throws io.memogate.proxy.pg.message.MalformedMessageException as decode
     */
    public static void check(ByteBuf frame) {
        PgWire.skipCString(frame, PgWire.bodyStart(frame), PgWire.bodyEnd(frame, TYPE));
    }

    /**
     * Whether bytes follow the query's terminating zero byte. PostgreSQL refuses such a Query with ERROR
     * 08P01 "invalid message format" and goes on; a proxy that forwards it leaves that to the server.
     *
     * @throws io.memogate.proxy.pg.message.MalformedMessageException as decode
     */
    public static boolean hasBytesAfterText(ByteBuf frame) {
        ByteBuf body = PgWire.body(frame, TYPE);
        PgWire.skipCString(body);
        return body.isReadable();
    }

    @Override
    public void encode(ByteBuf out) {
        int lengthIndex = PgWire.beginMessage(out, TYPE);
        PgWire.writeCString(out, sql);
        PgWire.endMessage(out, lengthIndex);
    }
}
