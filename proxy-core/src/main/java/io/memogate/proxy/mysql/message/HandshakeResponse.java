package io.memogate.proxy.mysql.message;

import io.memogate.proxy.mysql.codec.MySqlPackets;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;

/**
 * The client's answer to the greeting (protocol "Protocol::HandshakeResponse41"), relayed to the server with
 * the capabilities the greeting did not offer cleared ({@link Capabilities#CLEARED}) and CLIENT_SSL set as the
 * proxy's own leg to the server is; the proxy reads who logs in to which schema, for its logs and its
 * admission, and nothing of the credentials.
 *
 * <pre>
 * int&lt;4&gt;      capability flags
 * int&lt;4&gt;      max packet size; int&lt;1&gt; character set
 * string[19]  filler; int&lt;4&gt; MariaDB: extended capabilities (when CLIENT_MYSQL is clear); MySQL: filler
 * string&lt;NUL&gt; user name
 * auth data   length-encoded (PLUGIN_AUTH_LENENC_CLIENT_DATA), or int&lt;1&gt; length (SECURE_CONNECTION), or NUL-ended
 * string&lt;NUL&gt; schema (CONNECT_WITH_DB)
 * string&lt;NUL&gt; auth plugin name (PLUGIN_AUTH)
 * attributes  length-encoded key-value pairs (CONNECT_ATTRS): program_name among them
 * </pre>
 *
 * An SSLRequest is this packet cut after the filler, with CLIENT_SSL set. A server takes the capabilities of
 * the session from it (MariaDB's parse_client_handshake_packet reads them before TLS starts), so the proxy's
 * own SSLRequest to the server carries the client's ({@link #sslRequest}).
 *
 * @param database the schema named at login; empty when none
 * @param program the client's program_name attribute; empty when it sent none
 * @param capabilities the flags after clearing: what the session is
 */
public record HandshakeResponse(String user, String database, String program, int capabilities) {

    /** The fixed part: capabilities, max packet size, character set, filler; an SSLRequest's whole payload. */
    public static final int FIXED_BYTES = 32;
    /** Where MariaDB's extended capabilities sit in the fixed part. */
    private static final int EXTENDED_AT = 28;

    /** The packet asks for TLS: an SSLRequest, the fixed part alone with CLIENT_SSL set. */
    public static boolean isSslRequest(ByteBuf frame) {
        return MySqlPackets.payloadLength(frame) == FIXED_BYTES
                && (frame.getIntLE(frame.readerIndex() + MySqlPackets.HEADER_BYTES) & Capabilities.CLIENT_SSL) != 0;
    }

    /**
     * The proxy's SSLRequest to the server (sequence id 1, after the greeting), made from the client's first
     * packet (its SSLRequest or its response): the client's capabilities narrowed as {@link #rewrite} narrows
     * them, CLIENT_SSL set, its max packet size and character set.
     */
    public static ByteBuf sslRequest(ByteBuf clientFirst, ByteBufAllocator alloc) {
        int at = clientFirst.readerIndex() + MySqlPackets.HEADER_BYTES;
        if (MySqlPackets.payloadLength(clientFirst) < FIXED_BYTES) {
            throw new MalformedPacketException("the login packet is too short");
        }
        int capabilities = clientFirst.getIntLE(at);
        ByteBuf request = alloc.buffer(MySqlPackets.HEADER_BYTES + FIXED_BYTES);
        MySqlPackets.writeHeader(request, FIXED_BYTES, 1);
        request.writeIntLE(capabilities & ~Capabilities.CLEARED | Capabilities.CLIENT_SSL);
        request.writeBytes(clientFirst, at + 4, EXTENDED_AT - 4);
        int extended = clientFirst.getIntLE(at + EXTENDED_AT);
        request.writeIntLE((capabilities & Capabilities.CLIENT_MYSQL) == 0 ? extended & ~Capabilities.CLEARED_MARIADB
                : extended);
        return request;
    }

    /**
     * Reads the response in {@code frame} and clears its capabilities in place.
     *
     * @param serverTls whether the proxy's leg to the server is TLS: CLIENT_SSL is then set, else cleared
     * @throws MalformedPacketException when it is too short, or of the pre-4.1 protocol
     */
    public static HandshakeResponse rewrite(ByteBuf frame, boolean serverTls) {
        ByteBuf payload = MySqlPackets.payload(frame);
        if (payload.readableBytes() < FIXED_BYTES + 1) {
            throw new MalformedPacketException("the login packet is too short");
        }
        int capabilities = payload.getIntLE(0);
        if ((capabilities & Capabilities.CLIENT_PROTOCOL_41) == 0) {
            throw new MalformedPacketException("the login packet is of the pre-4.1 protocol, which is not served");
        }
        int narrowed = capabilities & ~Capabilities.CLEARED | (serverTls ? Capabilities.CLIENT_SSL : 0);
        int at = frame.readerIndex() + MySqlPackets.HEADER_BYTES;
        frame.setIntLE(at, narrowed);
        if ((capabilities & Capabilities.CLIENT_MYSQL) == 0) {
            frame.setIntLE(at + EXTENDED_AT, frame.getIntLE(at + EXTENDED_AT) & ~Capabilities.CLEARED_MARIADB);
        }
        try {
            payload.readerIndex(FIXED_BYTES);
            String user = readNulString(payload);
            skipAuthData(payload, capabilities);
            String database = (capabilities & Capabilities.CLIENT_CONNECT_WITH_DB) != 0 && payload.isReadable()
                    ? readNulString(payload) : "";
            if ((capabilities & Capabilities.CLIENT_PLUGIN_AUTH) != 0 && payload.isReadable()) {
                readNulString(payload);
            }
            String program = (capabilities & Capabilities.CLIENT_CONNECT_ATTRS) != 0 && payload.isReadable()
                    ? programName(payload) : "";
            return new HandshakeResponse(user, database, program, narrowed);
        } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
            throw new MalformedPacketException("the login packet ends inside a field");
        }
    }

    /** MariaDB's extended capabilities the (rewritten) response in {@code frame} sets; 0 from a MySQL client. */
    public static int mariaDbCapabilities(ByteBuf frame) {
        int at = frame.readerIndex() + MySqlPackets.HEADER_BYTES;
        return (frame.getIntLE(at) & Capabilities.CLIENT_MYSQL) == 0 ? frame.getIntLE(at + EXTENDED_AT) : 0;
    }

    /**
     * The response in {@code frame} (one packet, already {@link #rewrite rewritten}) with an empty schema: the
     * schema's field cut to its NUL, the rest byte for byte. A login to the admin console is relayed this way,
     * so that the server authenticates the account without needing a schema the account may use. The flag
     * CLIENT_CONNECT_WITH_DB stays: the server may have taken the session's capabilities from an SSLRequest
     * sent before the schema was known, and reads the field by them. The frame itself is left as it is.
     */
    public static ByteBuf withoutDatabase(ByteBuf frame, ByteBufAllocator alloc) {
        ByteBuf payload = MySqlPackets.payload(frame);
        int capabilities = payload.getIntLE(0);
        if ((capabilities & Capabilities.CLIENT_CONNECT_WITH_DB) == 0) {
            return frame.retainedDuplicate();
        }
        int from;
        int to;
        try {
            payload.readerIndex(FIXED_BYTES);
            readNulString(payload);
            skipAuthData(payload, capabilities);
            from = payload.readerIndex();
            if (!payload.isReadable()) {
                return frame.retainedDuplicate();
            }
            readNulString(payload);
            to = payload.readerIndex();
        } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
            throw new MalformedPacketException("the login packet ends inside a field");
        }
        int length = payload.writerIndex() - (to - from) + 1;
        ByteBuf out = alloc.buffer(MySqlPackets.HEADER_BYTES + length);
        MySqlPackets.writeHeader(out, length, MySqlPackets.sequenceId(frame));
        out.writeBytes(payload, 0, from);
        out.writeByte(0);
        out.writeBytes(payload, to, payload.writerIndex() - to);
        return out;
    }

    private static void skipAuthData(ByteBuf payload, int capabilities) {
        if ((capabilities & Capabilities.CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA) != 0) {
            payload.skipBytes(Math.toIntExact(MySqlPackets.readLengthEncoded(payload)));
        } else if ((capabilities & Capabilities.CLIENT_SECURE_CONNECTION) != 0) {
            payload.skipBytes(payload.readUnsignedByte());
        } else {
            readNulString(payload);
        }
    }

    private static String programName(ByteBuf payload) {
        int length = Math.toIntExact(MySqlPackets.readLengthEncoded(payload));
        ByteBuf attributes = payload.readSlice(length);
        while (attributes.isReadable()) {
            String key = readLengthEncodedString(attributes);
            String value = readLengthEncodedString(attributes);
            if (key.equals("program_name")) {
                return value;
            }
        }
        return "";
    }

    private static String readLengthEncodedString(ByteBuf in) {
        int length = Math.toIntExact(MySqlPackets.readLengthEncoded(in));
        return in.readCharSequence(length, StandardCharsets.UTF_8).toString();
    }

    private static String readNulString(ByteBuf in) {
        int end = in.indexOf(in.readerIndex(), in.writerIndex(), (byte) 0);
        if (end < 0) {
            throw new IllegalArgumentException("no NUL");
        }
        String text = in.toString(in.readerIndex(), end - in.readerIndex(), StandardCharsets.UTF_8);
        in.readerIndex(end + 1);
        return text;
    }
}
