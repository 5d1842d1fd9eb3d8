package io.memogate.proxy.tds.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** A login answer read for what the proxy acts on: LOGINACK, the packet size, and a Routing ENVCHANGE ([MS-TDS] 2.2.7.9). */
class LoginResponseTest {

    /** LOGINACK: TDS 7.4, program "X", version 16.0.1000. */
    private static final String LOGINACK = "ad" + "0c00" + "01" + "74000004" + "01" + "5800" + "100003e8";
    /** DONE, final, TDS 7.2's 8-byte row count. */
    private static final String DONE = "fd" + "0000" + "0000" + "0000000000000000";

    private static LoginResponse read(String hex) {
        ByteBuf data = Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump(hex));
        try {
            return LoginResponse.read(data);
        } finally {
            data.release();
        }
    }

    /** ENVCHANGE type 20 to {@code server} at {@code port}, its stated length {@code lengthDelta} off its fields'. */
    private static String routing(int protocol, int port, String server, int lengthDelta) {
        return routing(protocol, port, server, "", lengthDelta);
    }

    /** The same, {@code extra} (hex) after the server's name inside the value. */
    private static String routing(int protocol, int port, String server, String extra, int lengthDelta) {
        String name = ByteBufUtil.hexDump(server.getBytes(StandardCharsets.UTF_16LE));
        int value = 5 + 2 * server.length() + extra.length() / 2;
        String body = "14"                                          // type 20: Routing
                + le16(value + lengthDelta)                          // RoutingDataValueLength
                + String.format("%02x", protocol)                    // Protocol: 0 is TCP
                + le16(port)                                         // ProtocolProperty: the port
                + le16(server.length()) + name                       // AlternateServer: US_VARCHAR
                + extra                                              // enhanced routing: the database
                + "0000";                                            // OldValue: empty
        return "e3" + le16(body.length() / 2) + body;
    }

    private static String le16(int value) {
        return String.format("%02x%02x", value & 0xFF, (value >> 8) & 0xFF);
    }

    @Test
    void aRoutingAnswerNamesTheServerItsInstanceAndPort() {
        LoginResponse answer = read(LOGINACK + routing(0, 14330, "replica2.example.net\\READONLY", 0) + DONE);
        assertThat(answer.loggedIn()).isTrue();
        Routing routing = answer.routing().orElseThrow();
        assertThat(routing.alternateServer()).isEqualTo("replica2.example.net\\READONLY");
        assertThat(routing.host()).isEqualTo("replica2.example.net");
        assertThat(routing.instance()).contains("READONLY");
        assertThat(routing.port()).isEqualTo(14330);
        assertThat(routing.address()).isEqualTo("replica2.example.net:14330");
    }

    /** Enhanced routing: a database name (US_VARCHAR) after the server's, inside the value's length. */
    @Test
    void anEnhancedRoutingNamesTheDatabaseToo() {
        String database = "0700" + ByteBufUtil.hexDump("sales_r".getBytes(StandardCharsets.UTF_16LE));
        Routing read = read(LOGINACK + routing(0, 1433, "node2", database, 0) + DONE).routing().orElseThrow();
        assertThat(read.alternateServer()).isEqualTo("node2");
        assertThat(read.database()).contains("sales_r");
        assertThat(read(LOGINACK + routing(0, 1433, "node2", 0) + DONE).routing().orElseThrow().database()).isEmpty();
    }

    @Test
    void anAzureStyleRoutingWithoutInstanceIsTheHostItself() {
        Routing routing = read(LOGINACK + routing(0, 11000, "a1b2.tr5.westeurope1-a.worker.database.windows.net", 0)
                + DONE).routing().orElseThrow();
        assertThat(routing.host()).isEqualTo("a1b2.tr5.westeurope1-a.worker.database.windows.net");
        assertThat(routing.instance()).isEmpty();
    }

    @Test
    void anOrdinaryAnswerRoutesNowhereAndKeepsItsPacketSize() {
        // ENVCHANGE type 4, packet size: new value "512", old value empty
        String packetSize = "e3" + le16(1 + 1 + 6 + 1) + "04" + "03" + "350031003200" + "00";
        LoginResponse answer = read(packetSize + LOGINACK + DONE);
        assertThat(answer).isEqualTo(new LoginResponse(true, OptionalInt.of(512), Optional.empty()));
    }

    @Test
    void aRoutingToNowhereIsMalformed() {
        assertThatThrownBy(() -> read(LOGINACK + routing(1, 1433, "host", 0) + DONE))
                .isInstanceOf(MalformedPacketException.class).hasMessageContaining("protocol 1");
        assertThatThrownBy(() -> read(LOGINACK + routing(0, 0, "host", 0) + DONE))
                .isInstanceOf(MalformedPacketException.class).hasMessageContaining("port 0");
        assertThatThrownBy(() -> read(LOGINACK + routing(0, 1433, "", 0) + DONE))
                .isInstanceOf(MalformedPacketException.class).hasMessageContaining("0 characters");
        assertThatThrownBy(() -> read(LOGINACK + routing(0, 1433, "host", 40) + DONE))
                .isInstanceOf(MalformedPacketException.class).hasMessageContaining("does not fit");
        assertThatThrownBy(() -> read(LOGINACK + routing(0, 1433, "host", "0000", 0) + DONE))
                .as("2 bytes after the name that name no database")
                .isInstanceOf(MalformedPacketException.class).hasMessageContaining("not a database name");
        assertThatThrownBy(() -> read(LOGINACK + routing(0, 1433, "host", -2) + DONE))
                .isInstanceOf(MalformedPacketException.class).hasMessageContaining("server name of 4 characters");
    }
}
