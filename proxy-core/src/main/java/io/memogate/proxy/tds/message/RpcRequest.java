package io.memogate.proxy.tds.message;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;

/**
 * The statement text of an RPC request ([MS-TDS] 2.2.6.6) that runs one now: {@code sp_executesql}'s
 * {@code @stmt} (its first parameter) and {@code sp_prepexec}'s (its third, after the handle and the parameter
 * declarations), named by ProcID or by name. The request: ALL_HEADERS, the procedure (a 2-byte name length and the
 * name, or 0xFFFF and a 2-byte ProcID), 2 bytes of option flags, then each parameter: its name (B_VARCHAR), a
 * status byte, its TYPE_INFO and its value. Only the first request of a batch of RPCs is read; a text in a type
 * this reader does not take (NTEXT) or another procedure gives none, and the request is relayed unestimated.
 */
public final class RpcRequest {

    private static final int SP_EXECUTESQL = 10;
    private static final int SP_PREPEXEC = 13;
    private static final int INTN = 0x26;
    private static final int NVARCHAR = 0xE7;
    private static final int NCHAR = 0xEF;
    private static final int PLP = 0xFFFF;
    private static final long PLP_NULL = -1L;

    private final ByteBuf data;
    private int at;

    private RpcRequest(ByteBuf data) {
        this.data = data;
        this.at = data.readerIndex();
    }

    /** The text {@code data} (the message's data, without packet headers) runs; empty for other requests. */
    public static Optional<String> statementText(ByteBuf data) {
        try {
            return new RpcRequest(data.slice()).read(); // a slice: reads past the request's end throw
        } catch (IndexOutOfBoundsException e) {
            throw new MalformedPacketException("an RPC request cut short");
        }
    }

    private Optional<String> read() {
        long headers = data.getUnsignedIntLE(at);
        if (headers < 4 || headers > data.readableBytes()) {
            throw new MalformedPacketException("an RPC request whose ALL_HEADERS says " + headers + " bytes");
        }
        at += (int) headers;
        int nameLength = data.getUnsignedShortLE(at);
        at += 2;
        int procedure;
        if (nameLength == 0xFFFF) {
            procedure = data.getUnsignedShortLE(at);
            at += 2;
        } else {
            String name = data.toString(at, 2 * nameLength, StandardCharsets.UTF_16LE);
            at += 2 * nameLength;
            procedure = switch (name.toLowerCase(Locale.ROOT)) {
                case "sp_executesql", "sys.sp_executesql" -> SP_EXECUTESQL;
                case "sp_prepexec", "sys.sp_prepexec" -> SP_PREPEXEC;
                default -> 0;
            };
        }
        at += 2; // option flags
        return switch (procedure) {
            case SP_EXECUTESQL -> text();
            case SP_PREPEXEC -> {
                skipIntParameter();
                Optional<String> declarations = text();
                yield declarations.isEmpty() ? Optional.empty() : text();
            }
            default -> Optional.empty();
        };
    }

    private void skipNameAndStatus() {
        at += 1 + 2 * data.getUnsignedByte(at) + 1;
    }

    /** sp_prepexec's handle: an INTN (type, max length, then a length byte and the value). */
    private void skipIntParameter() {
        skipNameAndStatus();
        if (data.getUnsignedByte(at) != INTN) {
            throw new MalformedPacketException("sp_prepexec's handle is not an int");
        }
        at += 2;
        at += 1 + data.getUnsignedByte(at);
    }

    /** The next parameter's Unicode text; empty when it is of another type or NULL. */
    private Optional<String> text() {
        skipNameAndStatus();
        int type = data.getUnsignedByte(at);
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
            String text = data.toString(at, length, StandardCharsets.UTF_16LE);
            at += length;
            return Optional.of(text);
        }
        long total = data.getLongLE(at);
        at += 8;
        if (total == PLP_NULL) {
            return Optional.empty();
        }
        StringBuilder text = new StringBuilder();
        for (long chunk = data.getUnsignedIntLE(at); chunk != 0; chunk = data.getUnsignedIntLE(at)) {
            at += 4;
            if (chunk > data.writerIndex() - at) {
                throw new MalformedPacketException("an RPC text chunk longer than the request");
            }
            text.append(data.toString(at, (int) chunk, StandardCharsets.UTF_16LE));
            at += (int) chunk;
        }
        at += 4;
        return Optional.of(text.toString());
    }
}
