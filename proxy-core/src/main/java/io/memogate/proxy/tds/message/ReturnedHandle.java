package io.memogate.proxy.tds.message;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.OptionalInt;

/**
 * The prepared handle in a server's answer to sp_prepare, sp_prepexec, sp_cursorprepare or sp_cursorprepexec: the
 * first RETURNVALUE token ([MS-TDS] 2.2.7.18) of the answer, an INT output parameter. Reading a whole answer would
 * mean decoding every row by its COLMETADATA, so this reader looks only where the handle can be: among the tokens
 * before the first result set (sp_prepare's answer has nothing else), and at the end of the answer, where the output
 * parameters come after the rows, between the last DONEINPROC and the final DONEPROC. It keeps the first packet's
 * leading tokens and the answer's last {@value #TAIL} bytes, nothing else, and is fed only while such an answer is
 * expected. TDS 7.1 (jTDS) answers with a 2-byte user type in RETURNVALUE and 4-byte DONE row counts; TDS 7.2 brought
 * 4 and 8 bytes.
 */
public final class ReturnedHandle {

    /** The end of an answer it keeps: output parameters, RETURNSTATUS and DONEPROC fit many times over. */
    static final int TAIL = 512;

    private static final int RETURNVALUE = 0xAC;
    private static final int RETURNSTATUS = 0x79;
    private static final int DONE = 0xFD;
    private static final int DONEPROC = 0xFE;
    private static final int DONEINPROC = 0xFF;
    private static final int ERROR = 0xAA;
    private static final int INFO = 0xAB;
    private static final int ENVCHANGE = 0xE3;
    private static final int INTN = 0x26;
    private static final int INT4 = 0x38;

    private final int userTypeBytes;
    private final int doneBytes;
    private final byte[] tail = new byte[TAIL];
    private int tailLength;
    private boolean first = true;
    private OptionalInt found = OptionalInt.empty();

    /** A reader of an answer in TDS 7.2 or later ({@code tds72}), or in TDS 7.1 and before. */
    public ReturnedHandle(boolean tds72) {
        this.userTypeBytes = tds72 ? 4 : 2;
        this.doneBytes = tds72 ? 13 : 9;
    }

    /** A packet of the answer, header included; read, not kept nor released. */
    public void packet(ByteBuf packet, int headerBytes) {
        int from = packet.readerIndex() + headerBytes;
        int length = packet.writerIndex() - from;
        if (first) {
            first = false;
            found = leading(packet.slice(from, length));
        }
        if (found.isPresent() || length <= 0) {
            return;
        }
        int keep = Math.min(length, TAIL);
        int shift = Math.min(tailLength, TAIL - keep);
        System.arraycopy(tail, tailLength - shift, tail, 0, shift);
        packet.getBytes(packet.writerIndex() - keep, tail, shift, keep);
        tailLength = shift + keep;
    }

    /** The handle, once the answer's last packet was read; empty when the server returned none (it failed). */
    public OptionalInt handle() {
        if (found.isPresent()) {
            return found;
        }
        ByteBuf end = Unpooled.wrappedBuffer(tail, 0, tailLength);
        // The earliest RETURNVALUE from which the tokens run exactly to the answer's end is the first output parameter.
        for (int at = 0; at < tailLength; at++) {
            if ((tail[at] & 0xFF) == RETURNVALUE) {
                OptionalInt handle = trailing(end, at);
                if (handle.isPresent()) {
                    return handle;
                }
            }
        }
        return OptionalInt.empty();
    }

    /** The tokens before the first result set: the handle when a RETURNVALUE comes among them. */
    private OptionalInt leading(ByteBuf data) {
        try {
            int at = data.readerIndex();
            while (at < data.writerIndex()) {
                int token = data.getUnsignedByte(at);
                switch (token) {
                    case RETURNVALUE -> {
                        return intValue(data, at + 1);
                    }
                    case RETURNSTATUS -> at += 5;
                    case DONE, DONEPROC, DONEINPROC -> at += doneBytes;
                    case ERROR, INFO, ENVCHANGE -> at += 3 + data.getUnsignedShortLE(at + 1);
                    default -> {
                        return OptionalInt.empty(); // a result set, or a token this reader does not step over
                    }
                }
            }
        } catch (IndexOutOfBoundsException cut) {
            // the leading tokens go on in the next packet: the end of the answer is read instead
        }
        return OptionalInt.empty();
    }

    /** The handle of the RETURNVALUE at {@code from}, when the tokens from there end exactly with a final DONEPROC. */
    private OptionalInt trailing(ByteBuf end, int from) {
        try {
            OptionalInt handle = intValue(end, from + 1);
            if (handle.isEmpty()) {
                return handle;
            }
            int at = from;
            while (at < end.writerIndex()) {
                int token = end.getUnsignedByte(at);
                switch (token) {
                    case RETURNVALUE -> at = afterReturnValue(end, at + 1);
                    case RETURNSTATUS -> at += 5;
                    case DONEINPROC, DONEPROC, DONE -> {
                        at += doneBytes;
                        if (at == end.writerIndex()) {
                            return handle;
                        }
                    }
                    default -> {
                        return OptionalInt.empty();
                    }
                }
                if (at < 0) {
                    return OptionalInt.empty();
                }
            }
        } catch (IndexOutOfBoundsException beyond) {
            // not a token chain that ends the answer
        }
        return OptionalInt.empty();
    }

    /** A RETURNVALUE's INT value: ordinal (2), name (B_VARCHAR), status, user type (4; 2 in TDS 7.1), flags (2), TYPE_INFO. */
    private OptionalInt intValue(ByteBuf data, int at) {
        int type = typeAt(data, at);
        int typeAt = at + 2 + 1 + 2 * data.getUnsignedByte(at + 2) + 1 + userTypeBytes + 2;
        if (type == INT4) {
            return OptionalInt.of(data.getIntLE(typeAt + 1));
        }
        if (type == INTN && data.getUnsignedByte(typeAt + 2) == 4) {
            return OptionalInt.of(data.getIntLE(typeAt + 3));
        }
        return OptionalInt.empty();
    }

    /** Where the token after an INT RETURNVALUE begins; -1 for another type. */
    private int afterReturnValue(ByteBuf data, int at) {
        int type = typeAt(data, at);
        int typeAt = at + 2 + 1 + 2 * data.getUnsignedByte(at + 2) + 1 + userTypeBytes + 2;
        if (type == INT4) {
            return typeAt + 5;
        }
        if (type == INTN) {
            return typeAt + 3 + data.getUnsignedByte(typeAt + 2);
        }
        return -1;
    }

    private int typeAt(ByteBuf data, int at) {
        return data.getUnsignedByte(at + 2 + 1 + 2 * data.getUnsignedByte(at + 2) + 1 + userTypeBytes + 2);
    }
}
