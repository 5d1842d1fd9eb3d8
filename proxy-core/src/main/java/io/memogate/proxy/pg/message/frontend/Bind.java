package io.memogate.proxy.pg.message.frontend;

import io.memogate.proxy.pg.message.MalformedMessageException;
import io.memogate.proxy.pg.message.PgWire;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * Bind ('B'): the extended protocol's admission point, because PostgreSQL plans when a statement is
 * bound. Only the portal and statement names are decoded; parameter values and formats stay in the
 * forwarded frame, so {@link #encode} writes a Bind with no parameters (the proxy's own, around a degraded one).
 */
public record Bind(String portalName, String statementName) implements FrontendMessage {

    public static final byte TYPE = 'B';

    /**
     * The names must end within a Bind's first {@value #NAMES_WITHIN_BYTES} bytes. A longer Bind is relayed in
     * parts (ClientMessageDecoder) and decoded from its head, which holds at least that much and otherwise
     * whatever the reads brought: bounded so, the split of TCP's reads cannot decide whether a Bind is taken.
     */
    static final int NAMES_WITHIN_BYTES = 64 * 1024;

    public static Bind decode(ByteBuf frame) {
        ByteBuf body = names(frame);
        try {
            String portal = PgWire.readCString(body);
            return new Bind(portal, PgWire.readCString(body));
        } catch (MalformedMessageException e) {
            throw namesTooLong(frame, e);
        }
    }

    /**
     * The statement name, read as {@link #decode} reads it, but returned as {@code previous} when the frame names
     * that same statement in ASCII: a client binds the same few statements again and again, and a String per Bind
     * was most of what the relay allocated per prepared run.
     *
     * @throws io.memogate.proxy.pg.message.MalformedMessageException as decode
     */
    public static String statementName(ByteBuf frame, String previous) {
        int end = Math.min(PgWire.bodyEnd(frame, TYPE), frame.readerIndex() + NAMES_WITHIN_BYTES);
        try {
            int start = PgWire.skipCString(frame, PgWire.bodyStart(frame), end);
            int length = PgWire.skipCString(frame, start, end) - 1 - start;
            return sameAscii(frame, start, length, previous) ? previous
                    : frame.toString(start, length, StandardCharsets.UTF_8);
        } catch (MalformedMessageException e) {
            throw namesTooLong(frame, e);
        }
    }

    /** Whether the {@code length} bytes at {@code start} are {@code name}'s characters, each below 0x80. */
    private static boolean sameAscii(ByteBuf frame, int start, int length, String name) {
        if (name.length() != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            char c = name.charAt(i);
            if (c >= 0x80 || frame.getByte(start + i) != (byte) c) {
                return false;
            }
        }
        return true;
    }

    /**
     * Checks the frame as {@link #decode} would, without making the names' Strings, nor any object.
     *
     * @throws io.memogate.proxy.pg.message.MalformedMessageException as decode
     */
    public static void check(ByteBuf frame) {
        int end = Math.min(PgWire.bodyEnd(frame, TYPE), frame.readerIndex() + NAMES_WITHIN_BYTES);
        try {
            PgWire.skipCString(frame, PgWire.skipCString(frame, PgWire.bodyStart(frame), end), end);
        } catch (MalformedMessageException e) {
            throw namesTooLong(frame, e);
        }
    }

    /** The part of the body the names must be in: all of it, up to {@value #NAMES_WITHIN_BYTES} bytes of message. */
    private static ByteBuf names(ByteBuf frame) {
        ByteBuf body = PgWire.body(frame, TYPE);
        int within = NAMES_WITHIN_BYTES - 5; // less the type byte and the length word
        return body.readableBytes() > within ? body.slice(body.readerIndex(), within) : body;
    }

    private static MalformedMessageException namesTooLong(ByteBuf frame, MalformedMessageException e) {
        boolean cut = frame.getInt(frame.readerIndex() + 1) + 1 > NAMES_WITHIN_BYTES;
        return cut ? new MalformedMessageException("a Bind's portal and statement names must end within its first "
                + NAMES_WITHIN_BYTES + " bytes") : e;
    }

    @Override
    public void encode(ByteBuf out) {
        int lengthIndex = PgWire.beginMessage(out, TYPE);
        PgWire.writeCString(out, portalName);
        PgWire.writeCString(out, statementName);
        out.writeShort(0); // parameter format codes
        out.writeShort(0); // parameter values
        out.writeShort(0); // result format codes
        PgWire.endMessage(out, lengthIndex);
    }
}
