package io.memogate.proxy.mysql.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.proxy.mysql.codec.MySqlPackets;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The greeting's and the login's capabilities narrowed in place; what the proxy reads of them. */
class HandshakeTest {

    /** A MariaDB greeting: CLIENT_MYSQL clear, so its reserved bytes end with extended capabilities. */
    private static ByteBuf mariaDbGreeting(int capabilities, int extended) {
        ByteBuf payload = Unpooled.buffer();
        payload.writeByte(10);                                                // protocol version
        nul(payload, "10.11.19-MariaDB");
        payload.writeIntLE(4242);                                             // thread id
        payload.writeBytes("12345678".getBytes(StandardCharsets.US_ASCII)).writeByte(0); // scramble 1, filler
        payload.writeShortLE(capabilities & 0xFFFF);                          // capabilities, low
        payload.writeByte(45).writeShortLE(2);                                // charset, status
        payload.writeShortLE(capabilities >>> 16);                            // capabilities, high
        payload.writeByte(21).writeZero(6);                                   // scramble length, reserved
        payload.writeIntLE(extended);                                         // MariaDB extended capabilities
        payload.writeBytes("abcdefghijkl".getBytes(StandardCharsets.US_ASCII)).writeByte(0); // scramble 2
        nul(payload, "mysql_native_password");
        ByteBuf packet = Unpooled.buffer();
        MySqlPackets.writeHeader(packet, payload.readableBytes(), 0);
        return packet.writeBytes(payload);
    }

    private static void nul(ByteBuf out, String text) {
        out.writeCharSequence(text, StandardCharsets.UTF_8);
        out.writeByte(0);
    }

    @Test
    void theGreetingKeepsItsThreadIdAndLocalFilesAndLosesWhatTheProxyCannotRelay() {
        int offered = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_SSL | Capabilities.CLIENT_COMPRESS
                | Capabilities.CLIENT_DEPRECATE_EOF | Capabilities.CLIENT_PLUGIN_AUTH | Capabilities.CLIENT_QUERY_ATTRIBUTES
                | Capabilities.CLIENT_ZSTD_COMPRESSION_ALGORITHM | Capabilities.CLIENT_LOCAL_FILES;
        ByteBuf packet = mariaDbGreeting(offered, Capabilities.MARIADB_STMT_BULK_OPERATIONS | Capabilities.MARIADB_PROGRESS
                | 1 << 3);
        Greeting greeting = Greeting.rewrite(packet, false);

        assertThat(greeting.threadId()).isEqualTo(4242);
        assertThat(greeting.offersTls()).as("the server's offer, read before narrowing").isTrue();
        ByteBuf again = packet.duplicate().skipBytes(4 + 1 + 17 + 4 + 9);
        int capabilities = again.readUnsignedShortLE();
        again.skipBytes(3);
        capabilities |= again.readUnsignedShortLE() << 16;
        assertThat(capabilities).as(ByteBufUtil.prettyHexDump(packet)).isEqualTo(Capabilities.CLIENT_PROTOCOL_41
                | Capabilities.CLIENT_DEPRECATE_EOF | Capabilities.CLIENT_PLUGIN_AUTH | Capabilities.CLIENT_LOCAL_FILES);
        assertThat(again.skipBytes(7).readIntLE()).as("MariaDB's extended metadata and bulk command stay, progress goes")
                .isEqualTo(Capabilities.MARIADB_STMT_BULK_OPERATIONS | 1 << 3);
        packet.release();
    }

    @Test
    void aListenerWithTlsOffersItWhateverTheServerOffers() {
        ByteBuf packet = mariaDbGreeting(Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_COMPRESS, 0);
        Greeting greeting = Greeting.rewrite(packet, true);

        assertThat(greeting.offersTls()).isFalse();
        int lowCapabilities = packet.getUnsignedShortLE(4 + 1 + 17 + 4 + 9);
        assertThat(lowCapabilities).as(ByteBufUtil.prettyHexDump(packet))
                .isEqualTo(Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_SSL);
        packet.release();
    }

    @Test
    void aGreetingOfAnotherProtocolIsRefused() {
        ByteBuf packet = Unpooled.buffer();
        MySqlPackets.writeHeader(packet, 2, 0);
        packet.writeByte(9).writeByte(0);
        assertThatThrownBy(() -> Greeting.rewrite(packet, false)).isInstanceOf(MalformedPacketException.class)
                .hasMessageContaining("protocol 10");
        packet.release();
    }

    private static ByteBuf login(int capabilities) {
        ByteBuf payload = Unpooled.buffer();
        payload.writeIntLE(capabilities).writeIntLE(1 << 24).writeByte(45).writeZero(23);
        nul(payload, "memo");       // user
        payload.writeByte(20).writeZero(20);                                            // auth data, 1-byte length
        nul(payload, "shop");        // schema
        nul(payload, "mysql_native_password");
        ByteBuf attributes = Unpooled.buffer();
        for (String text : new String[] {"_os", "Linux", "program_name", "reports"}) {
            attributes.writeByte(text.length());
            attributes.writeCharSequence(text, StandardCharsets.UTF_8);
        }
        payload.writeByte(attributes.readableBytes()).writeBytes(attributes);
        ByteBuf packet = Unpooled.buffer();
        MySqlPackets.writeHeader(packet, payload.readableBytes(), 1);
        return packet.writeBytes(payload);
    }

    @Test
    void theLoginSaysWhoToWhichSchemaAndLosesTheSameCapabilities() {
        int asked = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_SECURE_CONNECTION | Capabilities.CLIENT_MYSQL
                | Capabilities.CLIENT_CONNECT_WITH_DB | Capabilities.CLIENT_PLUGIN_AUTH | Capabilities.CLIENT_CONNECT_ATTRS
                | Capabilities.CLIENT_COMPRESS;
        ByteBuf packet = login(asked);
        assertThat(HandshakeResponse.isSslRequest(packet)).isFalse();
        HandshakeResponse response = HandshakeResponse.rewrite(packet, false);
        assertThat(response.user()).isEqualTo("memo");
        assertThat(response.database()).isEqualTo("shop");
        assertThat(response.program()).isEqualTo("reports");
        assertThat(packet.getIntLE(4)).isEqualTo(asked & ~Capabilities.CLIENT_COMPRESS);
        packet.release();
    }

    @Test
    void anSslRequestIsTheFixedPartWithTheSslFlag() {
        ByteBuf packet = Unpooled.buffer();
        MySqlPackets.writeHeader(packet, 32, 1);
        packet.writeIntLE(Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_SSL).writeZero(28);
        assertThat(HandshakeResponse.isSslRequest(packet)).isTrue();
        packet.release();
    }

    @Test
    void towardATlsServerTheLoginSaysSsl() {
        int asked = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_SECURE_CONNECTION | Capabilities.CLIENT_MYSQL
                | Capabilities.CLIENT_SSL;
        ByteBuf toTlsServer = login(asked);
        ByteBuf toPlainServer = login(asked);

        HandshakeResponse.rewrite(toTlsServer, true);
        HandshakeResponse.rewrite(toPlainServer, false);

        assertThat(toTlsServer.getIntLE(4)).isEqualTo(asked);
        assertThat(toPlainServer.getIntLE(4)).isEqualTo(asked & ~Capabilities.CLIENT_SSL);
        toTlsServer.release();
        toPlainServer.release();
    }

    /** The server takes the session's capabilities from the SSLRequest: the proxy's carries the client's, narrowed. */
    @Test
    void theProxysSslRequestCarriesTheClientsCapabilities() {
        int asked = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_SECURE_CONNECTION
                | Capabilities.CLIENT_DEPRECATE_EOF | Capabilities.CLIENT_COMPRESS;   // CLIENT_MYSQL clear: MariaDB's
        ByteBuf login = login(asked);
        login.setIntLE(4 + 28, Capabilities.MARIADB_PROGRESS | 1 << 3);                 // extended capabilities
        ByteBuf request = HandshakeResponse.sslRequest(login, UnpooledByteBufAllocator.DEFAULT);

        ByteBuf expected = Unpooled.buffer();
        MySqlPackets.writeHeader(expected, 32, 1);                                      // 32 bytes, sequence id 1
        expected.writeIntLE(asked & ~Capabilities.CLIENT_COMPRESS | Capabilities.CLIENT_SSL);
        expected.writeIntLE(1 << 24).writeByte(45).writeZero(19);                       // max packet, charset, filler
        expected.writeIntLE(1 << 3);                                                    // extended, progress cleared
        assertThat(ByteBufUtil.equals(request, expected)).as(ByteBufUtil.prettyHexDump(request)).isTrue();
        assertThat(HandshakeResponse.isSslRequest(request)).isTrue();
        login.release();
        request.release();
        expected.release();
    }

    @Test
    void aLoginCutShortIsMalformed() {
        ByteBuf packet = login(Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_SECURE_CONNECTION);
        ByteBuf cut = Unpooled.buffer();
        MySqlPackets.writeHeader(cut, 40, 1);
        cut.writeBytes(packet, 4, 40);
        cut.setByte(4 + 32 + 5, 200); // an auth data length past the end
        assertThatThrownBy(() -> HandshakeResponse.rewrite(cut, false)).isInstanceOf(MalformedPacketException.class);
        packet.release();
        cut.release();
    }
}
