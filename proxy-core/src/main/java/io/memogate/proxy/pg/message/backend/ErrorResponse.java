package io.memogate.proxy.pg.message.backend;

import io.memogate.proxy.pg.message.PgWire;
import io.netty.buffer.ByteBuf;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * ErrorResponse ('E') or NoticeResponse ('N'): identified fields, each a code byte and a string
 * (https://www.postgresql.org/docs/current/protocol-error-fields.html). The proxy decodes the
 * server's errors to see their SQLSTATE and severity, and builds its own with {@link PgErrors}.
 */
public record ErrorResponse(byte type, Map<Character, String> fields) implements BackendMessage {

    public static final byte TYPE = 'E';
    public static final byte NOTICE_TYPE = 'N';

    public static final char SEVERITY = 'S';
    public static final char SEVERITY_NONLOCALIZED = 'V';
    public static final char SQLSTATE = 'C';
    public static final char MESSAGE = 'M';
    public static final char DETAIL = 'D';
    public static final char HINT = 'H';

    public ErrorResponse {
        fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }

    public static ErrorResponse decode(ByteBuf frame) {
        byte type = frame.getByte(frame.readerIndex());
        ByteBuf body = PgWire.body(frame, type);
        Map<Character, String> fields = new LinkedHashMap<>();
        while (body.isReadable()) {
            byte code = body.readByte();
            if (code == 0) {
                break;
            }
            fields.put((char) code, PgWire.readCString(body));
        }
        return new ErrorResponse(type, fields);
    }

    public String severity() {
        return fields.getOrDefault(SEVERITY_NONLOCALIZED, fields.getOrDefault(SEVERITY, ""));
    }

    public String sqlState() {
        return fields.getOrDefault(SQLSTATE, "");
    }

    public String message() {
        return fields.getOrDefault(MESSAGE, "");
    }

    /** FATAL and PANIC end the session: the server closes the connection after sending them. */
    public boolean endsSession() {
        String severity = severity();
        return severity.equals("FATAL") || severity.equals("PANIC");
    }

    @Override
    public void encode(ByteBuf out) {
        int lengthIndex = PgWire.beginMessage(out, type);
        fields.forEach((code, value) -> {
            out.writeByte(code);
            PgWire.writeCString(out, value);
        });
        out.writeByte(0);
        PgWire.endMessage(out, lengthIndex);
    }
}
