package io.memogate.proxy.tds.message;

import io.memogate.proxy.tds.message.RpcCall.Procedure;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Reads the requests of an RPC message ([MS-TDS] 2.2.6.6) into an {@link RpcCall}: ALL_HEADERS, the procedure
 * (a 2-byte name length and the name, or 0xFFFF and a 2-byte ProcID), 2 bytes of option flags, then each parameter:
 * its name (B_VARCHAR), a status byte, its TYPE_INFO and its value. The statement is the parameter each procedure
 * documents: sp_executesql's first; sp_cursoropen's second (after the cursor); sp_prepare's, sp_prepexec's and
 * sp_cursorprepare's third (after the handle and the declarations); sp_cursorprepexec's fourth (after the handle,
 * the cursor and the declarations); as NVARCHAR, NCHAR, NVARCHAR(MAX) in PLP chunks or NTEXT. sp_execute,
 * sp_cursorexecute, sp_unprepare and sp_cursorunprepare name their handle first, an INT. A parameter before the
 * statement in a type not read here (or the statement in one) gives no text: the request is relayed unestimated,
 * as is one that ends before its statement or handle (the server answers it with its own error, 201).
 */
public final class RpcRequest {

    private static final int INT4 = 0x38;
    private static final int INTN = 0x26;
    private static final int NVARCHAR = 0xE7;
    private static final int NCHAR = 0xEF;
    private static final int NTEXT = 0x63;
    private static final int PLP = 0xFFFF;
    private static final long PLP_NULL = -1L;

    private static final int BATCH_FLAG = 0xFF;
    /** TDS 7.1 and before separate the requests of a batch with 0x80 ([MS-TDS] 2.2.6.6); jTDS does. */
    private static final int BATCH_FLAG_TDS71 = 0x80;
    private static final int NO_EXEC_FLAG = 0xFE;

    private final ByteBuf data;
    private int batchFlag = BATCH_FLAG;
    private int at;
    /** The last call was read to the end of what it holds: the next one can be found. */
    private boolean readToEnd;

    private RpcRequest(ByteBuf data) {
        this.data = data;
        this.at = data.readerIndex();
    }

    /** The first call in {@code data} (the message's data, without packet headers). */
    public static RpcCall read(ByteBuf data) {
        try {
            RpcRequest request = new RpcRequest(data.slice()); // a slice: reads past the request's end throw
            request.headers();
            return request.call();
        } catch (IndexOutOfBoundsException e) {
            throw new MalformedPacketException("an RPC request cut short");
        }
    }

    /**
     * Every call in {@code data}: requests of a batch follow each other after a BatchFlag (0xFF; 0x80 before TDS
     * 7.2) or NoExecFlag (0xFE). A parameter of a type {@link RpcParameter} does not step over ends the reading: the calls read until
     * then, and {@link RpcBatch#allRead()} false.
     */
    public static RpcBatch readAll(ByteBuf data) {
        return readAll(data, true);
    }

    /** The same, for a client that sends ALL_HEADERS ({@code allHeaders}) or not (TDS 7.1 and before: jTDS). */
    public static RpcBatch readAll(ByteBuf data, boolean allHeaders) {
        try {
            RpcRequest request = new RpcRequest(data.slice());
            if (allHeaders) {
                request.headers();
            } else {
                request.batchFlag = BATCH_FLAG_TDS71;
            }
            return request.calls();
        } catch (IndexOutOfBoundsException e) {
            throw new MalformedPacketException("an RPC request cut short");
        }
    }

    private RpcBatch calls() {
        List<RpcCall> calls = new ArrayList<>();
        while (true) {
            RpcCall call = call();
            calls.add(call);
            if (!readToEnd) {
                return new RpcBatch(calls, false);
            }
            while (at < data.writerIndex() && !separator(data.getUnsignedByte(at))) {
                at = RpcParameter.skip(data, at);
                if (at < 0) {
                    return new RpcBatch(calls, false);
                }
            }
            if (at >= data.writerIndex()) {
                return new RpcBatch(calls, true);
            }
            at += 1;
            if (at >= data.writerIndex()) {
                return new RpcBatch(calls, true); // a flag ending the message: no request after it
            }
        }
    }

    private boolean separator(int b) {
        return b == batchFlag || b == NO_EXEC_FLAG;
    }

    /** The text {@code data} runs now or prepares; empty for other requests. */
    public static Optional<String> statementText(ByteBuf data) {
        return read(data).text();
    }

    private void headers() {
        long headers = data.getUnsignedIntLE(at);
        if (headers < 4 || headers > data.readableBytes()) {
            throw new MalformedPacketException("an RPC request whose ALL_HEADERS says " + headers + " bytes");
        }
        at += (int) headers;
    }

    /** One request from {@code at}; leaves {@code at} after what was read, {@link #readToEnd} false if lost. */
    private RpcCall call() {
        readToEnd = true;
        int nameLength = data.getUnsignedShortLE(at);
        at += 2;
        Procedure procedure;
        if (nameLength == 0xFFFF) {
            procedure = Procedure.byId(data.getUnsignedShortLE(at));
            at += 2;
        } else {
            String name = data.toString(at, 2 * nameLength, StandardCharsets.UTF_16LE);
            at += 2 * nameLength;
            procedure = Procedure.byName(name);
        }
        at += 2; // option flags
        if (procedure.executesHandle() || procedure.dropsHandle()) {
            return new RpcCall(procedure, Optional.empty(), callEnds() ? OptionalInt.empty() : intParameter());
        }
        int before = switch (procedure) {
            case SP_EXECUTESQL -> 0;
            case SP_CURSOROPEN -> 1;
            case SP_PREPARE, SP_PREPEXEC, SP_CURSORPREPARE -> 2;
            case SP_CURSORPREPEXEC -> 3;
            default -> -1;
        };
        if (before < 0) {
            return new RpcCall(procedure, Optional.empty(), OptionalInt.empty());
        }
        for (int i = 0; i < before; i++) {
            if (callEnds()) {
                return new RpcCall(procedure, Optional.empty(), OptionalInt.empty());
            }
            int next = RpcParameter.skip(data, at);
            if (next < 0) {
                readToEnd = false;
                return new RpcCall(procedure, Optional.empty(), OptionalInt.empty());
            }
            at = next;
        }
        if (callEnds()) {
            return new RpcCall(procedure, Optional.empty(), OptionalInt.empty());
        }
        int start = at;
        Optional<String> text = text();
        if (text.isEmpty()) {
            at = RpcParameter.skip(data, start); // another type, or NULL
            readToEnd = at >= 0;
        }
        return new RpcCall(procedure, text, OptionalInt.empty());
    }

    /**
     * The request ends here, before a parameter its procedure documents: well-formed TDS all the same, which the
     * server answers with its own error (201, a parameter not supplied) and the connection goes on.
     */
    private boolean callEnds() {
        return at >= data.writerIndex() || separator(data.getUnsignedByte(at));
    }

    private void skipNameAndStatus() {
        at += 1 + 2 * data.getUnsignedByte(at) + 1;
    }

    /** An INT parameter (INTN: type, max length, a length byte and the value; or INT4); empty when NULL. */
    private OptionalInt intParameter() {
        int start = at;
        skipNameAndStatus();
        int type = data.getUnsignedByte(at);
        if (type == INT4) {
            int value = data.getIntLE(at + 1);
            at += 5;
            return OptionalInt.of(value);
        }
        if (type != INTN) {
            at = RpcParameter.skip(data, start);
            readToEnd = at >= 0;
            return OptionalInt.empty();
        }
        at += 2;
        int length = data.getUnsignedByte(at);
        at += 1;
        OptionalInt value = length == 4 ? OptionalInt.of(data.getIntLE(at)) : OptionalInt.empty();
        at += length;
        return value;
    }

    /** The next parameter's Unicode text; empty when it is of another type or NULL. */
    private Optional<String> text() {
        skipNameAndStatus();
        int type = data.getUnsignedByte(at);
        if (type == NTEXT) {
            return ntext();
        }
        if (type != NVARCHAR && type != NCHAR) {
            return Optional.empty();
        }
        int maxLength = data.getUnsignedShortLE(at + 1);
        at += 1 + 2 + 5; // type, max length, collation
        if (maxLength != PLP) {
            int length = data.getUnsignedShortLE(at);
            at += 2;
            if (length == 0xFFFF) {
                return Optional.empty();
            }
            return Optional.of(string(length));
        }
        long total = data.getLongLE(at);
        if (total == PLP_NULL) {
            at += 8;
            return Optional.empty();
        }
        at += 8;
        StringBuilder text = new StringBuilder();
        for (long chunk = data.getUnsignedIntLE(at); chunk != 0; chunk = data.getUnsignedIntLE(at)) {
            at += 4;
            text.append(string(chunk));
        }
        at += 4;
        return Optional.of(text.toString());
    }

    /** NTEXT: type, a 4-byte max length, collation; the value as an RPC sends it: a 4-byte length (all ones: NULL). */
    private Optional<String> ntext() {
        at += 1 + 4 + 5;
        long length = data.getUnsignedIntLE(at);
        at += 4;
        return length == 0xFFFFFFFFL ? Optional.empty() : Optional.of(string(length));
    }

    private String string(long length) {
        if (length > data.writerIndex() - at) {
            throw new MalformedPacketException("an RPC text longer than the request");
        }
        String text = data.toString(at, (int) length, StandardCharsets.UTF_16LE);
        at += (int) length;
        return text;
    }
}
