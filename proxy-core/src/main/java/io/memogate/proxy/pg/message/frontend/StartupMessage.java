package io.memogate.proxy.pg.message.frontend;

import io.memogate.proxy.pg.message.MalformedMessageException;
import io.memogate.proxy.pg.message.PgWire;
import io.netty.buffer.ByteBuf;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * StartupMessage: protocol version (major << 16 | minor) and name/value pairs ending in an empty
 * name. Parameters keep the client's order because they are re-encoded for the server.
 */
public record StartupMessage(int protocolVersion, Map<String, String> parameters) implements StartupPacket {

    public static final int PROTOCOL_3_0 = 3 << 16;
    public static final int PROTOCOL_3_2 = 3 << 16 | 2;

    public StartupMessage {
        parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
    }

    /**
     * Name/value pairs, then the empty name as the packet's last byte: anything else (a name without its
     * value, bytes after the terminator) is what PostgreSQL refuses with FATAL, in its words.
     */
    static StartupMessage decode(ByteBuf frame) {
        ByteBuf body = frame.slice(frame.readerIndex() + 8, frame.readableBytes() - 8);
        int version = frame.getInt(frame.readerIndex() + 4);
        Map<String, String> parameters = new LinkedHashMap<>();
        try {
            while (true) {
                String name = PgWire.readCString(body);
                if (name.isEmpty()) {
                    break;
                }
                parameters.put(name, PgWire.readCString(body));
            }
        } catch (MalformedMessageException unterminated) {
            throw badLayout();
        }
        if (body.isReadable()) {
            throw badLayout();
        }
        return new StartupMessage(version, parameters);
    }

    private static MalformedMessageException badLayout() {
        return new MalformedMessageException("invalid startup packet layout: expected terminator as last byte");
    }

    public int majorVersion() {
        return protocolVersion >>> 16;
    }

    public int minorVersion() {
        return protocolVersion & 0xFFFF;
    }

    public String user() {
        return parameters.getOrDefault("user", "");
    }

    /** The database, which PostgreSQL defaults to the user name. */
    public String database() {
        String database = parameters.get("database");
        return database == null || database.isEmpty() ? user() : database;
    }

    @Override
    public void encode(ByteBuf out) {
        int lengthIndex = out.writerIndex();
        out.writeInt(0);
        out.writeInt(protocolVersion);
        parameters.forEach((name, value) -> {
            PgWire.writeCString(out, name);
            PgWire.writeCString(out, value);
        });
        out.writeByte(0);
        out.setInt(lengthIndex, out.writerIndex() - lengthIndex);
    }
}
