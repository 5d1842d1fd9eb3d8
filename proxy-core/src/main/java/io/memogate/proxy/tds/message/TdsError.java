package io.memogate.proxy.tds.message;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * An ERROR token ([MS-TDS] 2.2.7.10) the proxy sends itself: 0xAA, the length of what follows (2 bytes), the error
 * number (4), state (1), class (1; 20 and above end the connection), the message (US_VARCHAR: a 2-byte count of
 * UTF-16 code units, then the text), the server's name and the procedure's (B_VARCHAR: a 1-byte count), the line
 * number (4). All little-endian.
 */
public record TdsError(int number, int state, int severity, String message) {

    public static final int TOKEN = 0xAA;
    /** The server name the proxy's own errors carry. */
    static final String SERVER_NAME = "memogate";

    /** Severity 20 and above: a fatal error, after which the server (here the proxy) closes the connection. */
    public boolean fatal() {
        return severity >= 20;
    }

    public void encode(ByteBuf out) {
        String text = message.length() > 0xFFFF ? message.substring(0, 0xFFFF) : message;
        int length = 4 + 1 + 1 + 2 + 2 * text.length() + 1 + 2 * SERVER_NAME.length() + 1 + 4;
        out.writeByte(TOKEN).writeShortLE(length)
                .writeIntLE(number).writeByte(state).writeByte(severity)
                .writeShortLE(text.length());
        out.writeCharSequence(text, StandardCharsets.UTF_16LE);
        out.writeByte(SERVER_NAME.length());
        out.writeCharSequence(SERVER_NAME, StandardCharsets.UTF_16LE);
        out.writeByte(0); // no procedure
        out.writeIntLE(1); // line 1 of the batch
    }
}
