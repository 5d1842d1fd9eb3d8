package io.memogate.proxy.mysql.message;

import io.memogate.proxy.mysql.codec.MySqlPackets;
import io.netty.buffer.ByteBuf;

/**
 * The server's Initial Handshake Packet (protocol "Protocol::HandshakeV10"), relayed to the client with its
 * capabilities narrowed to what the proxy relays ({@link Capabilities#CLEARED}), and CLIENT_SSL offered when
 * the listener terminates TLS itself, whether the server offers it or not; everything else, the thread id above
 * all (what KILL names), goes to the client as the server sent it.
 *
 * <pre>
 * int&lt;1&gt;    protocol version, 10 (0xFF: an ERR instead of a greeting, such as 1040 too many connections)
 * string&lt;NUL&gt; server version
 * int&lt;4&gt;    thread id
 * string[8] auth-plugin-data-part-1, then a filler byte
 * int&lt;2&gt;    capability flags, low half
 * int&lt;1&gt;    character set; int&lt;2&gt; status flags
 * int&lt;2&gt;    capability flags, high half
 * int&lt;1&gt;    length of auth-plugin-data; string[6] reserved
 * int&lt;4&gt;    MariaDB: extended capabilities (when CLIENT_MYSQL is clear); MySQL: reserved
 * ...       auth-plugin-data-part-2, auth plugin name
 * </pre>
 *
 * @param threadId the server connection's id: what KILL and SHOW PROCESSLIST name
 * @param capabilities the server's flags before they were narrowed
 */
public record Greeting(long threadId, int capabilities) {

    /** The server accepts an SSLRequest. */
    public boolean offersTls() {
        return (capabilities & Capabilities.CLIENT_SSL) != 0;
    }

    public static final int PROTOCOL_VERSION = 10;

    /**
     * Reads the greeting in {@code frame} (one packet, header included) and narrows its capabilities in place.
     *
     * @param offerTls whether the client may ask for TLS (the listener has a certificate)
     * @throws MalformedPacketException when it is no HandshakeV10
     */
    public static Greeting rewrite(ByteBuf frame, boolean offerTls) {
        int start = frame.readerIndex() + MySqlPackets.HEADER_BYTES;
        int end = start + MySqlPackets.payloadLength(frame);
        if (end > frame.writerIndex() || start >= end || frame.getUnsignedByte(start) != PROTOCOL_VERSION) {
            throw new MalformedPacketException("the server's greeting is not protocol 10");
        }
        int versionEnd = frame.indexOf(start + 1, end, (byte) 0);
        int threadAt = versionEnd + 1;
        int lowCapsAt = threadAt + 4 + 8 + 1;
        int highCapsAt = lowCapsAt + 2 + 1 + 2;
        int extendedAt = highCapsAt + 2 + 1 + 6;
        if (versionEnd < 0 || extendedAt + 4 > end) {
            throw new MalformedPacketException("the server's greeting is too short");
        }
        int capabilities = frame.getUnsignedShortLE(lowCapsAt) | frame.getUnsignedShortLE(highCapsAt) << 16;
        int narrowed = capabilities & ~Capabilities.CLEARED | (offerTls ? Capabilities.CLIENT_SSL : 0);
        frame.setShortLE(lowCapsAt, narrowed & 0xFFFF);
        frame.setShortLE(highCapsAt, narrowed >>> 16);
        if ((capabilities & Capabilities.CLIENT_MYSQL) == 0) {
            frame.setIntLE(extendedAt, frame.getIntLE(extendedAt) & ~Capabilities.CLEARED_MARIADB);
        }
        return new Greeting(frame.getUnsignedIntLE(threadAt), capabilities);
    }
}
