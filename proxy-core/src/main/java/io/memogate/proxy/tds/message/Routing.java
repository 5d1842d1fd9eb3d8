package io.memogate.proxy.tds.message;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * A Routing ENVCHANGE (type 20, [MS-TDS] 2.2.7.9) in a login answer: the server (an Azure SQL gateway, an
 * availability group listener with read-only routing) accepted the login and tells the client to log in again to
 * another server. Its NewValue is RoutingDataValueLength (2 bytes), Protocol (1 byte, 0: TCP), ProtocolProperty (2
 * bytes: the port) and AlternateServer (a US_VARCHAR: a count of UTF-16LE characters in 2 bytes, then them), then,
 * from a server that acknowledged the client's request for enhanced routing (FeatureExt 0x0F), a database name (a
 * US_VARCHAR) as mssql-jdbc reads it; its OldValue is empty (2 zero bytes). All little-endian.
 *
 * @param port the routed server's TCP port
 * @param alternateServer the routed server's name as the server gave it, a host name or {@code host\instance};
 *     a client puts it in its next LOGIN7's ServerName
 * @param database the database to log in to there (enhanced routing); empty: the one the client named
 */
public record Routing(int port, String alternateServer, Optional<String> database) {

    /** ENVCHANGE's type for routing. */
    public static final int ENV_TYPE = 20;
    /** The longest AlternateServer a client takes (mssql-jdbc's bound). */
    private static final int MAX_SERVER_CHARS = 1024;
    /** The longest database name of enhanced routing (SQL Server's sysname, as mssql-jdbc checks it). */
    private static final int MAX_DATABASE_CHARS = 128;

    /** The host to connect to: the server's name before a {@code \instance}. */
    public String host() {
        int instance = alternateServer.indexOf('\\');
        return instance < 0 ? alternateServer : alternateServer.substring(0, instance);
    }

    /** The instance name after a backslash, if the server named one (the port already says where it listens). */
    public Optional<String> instance() {
        int instance = alternateServer.indexOf('\\');
        return instance < 0 ? Optional.empty() : Optional.of(alternateServer.substring(instance + 1));
    }

    /** host:port, for messages and the console. */
    public String address() {
        return host() + ":" + port;
    }

    /**
     * Reads the NewValue of a Routing ENVCHANGE from {@code at} (just after the type byte) to {@code end} (the end of
     * the token), leaving {@code data} as it was.
     *
     * @throws MalformedPacketException when it is cut short, names a protocol other than TCP, port 0 or no server
     */
    public static Routing decode(ByteBuf data, int at, int end) {
        if (at + 2 > end) {
            throw new MalformedPacketException("a Routing ENVCHANGE without its value");
        }
        int length = data.getUnsignedShortLE(at);
        int value = at + 2;
        if (length < 5 || value + length > end) {
            throw new MalformedPacketException("a Routing ENVCHANGE whose value of " + length
                    + " bytes does not fit its token");
        }
        int protocol = data.getUnsignedByte(value);
        if (protocol != 0) {
            throw new MalformedPacketException("a Routing ENVCHANGE naming protocol " + protocol + " (only 0, TCP, is "
                    + "defined)");
        }
        int port = data.getUnsignedShortLE(value + 1);
        int chars = data.getUnsignedShortLE(value + 3);
        if (port == 0 || chars == 0 || chars > MAX_SERVER_CHARS || 5 + 2 * chars > length) {
            throw new MalformedPacketException("a Routing ENVCHANGE with port " + port + " and a server name of "
                    + chars + " characters in " + length + " bytes");
        }
        String server = data.toString(value + 5, 2 * chars, StandardCharsets.UTF_16LE);
        int rest = value + 5 + 2 * chars;
        if (rest == value + length) {
            return new Routing(port, server, Optional.empty());
        }
        int databaseChars = rest + 2 <= value + length ? data.getUnsignedShortLE(rest) : 0;
        if (databaseChars == 0 || databaseChars > MAX_DATABASE_CHARS || rest + 2 + 2 * databaseChars > value + length) {
            throw new MalformedPacketException("a Routing ENVCHANGE with " + (value + length - rest)
                    + " bytes after its server name that are not a database name");
        }
        return new Routing(port, server, Optional.of(data.toString(rest + 2, 2 * databaseChars,
                StandardCharsets.UTF_16LE)));
    }
}
