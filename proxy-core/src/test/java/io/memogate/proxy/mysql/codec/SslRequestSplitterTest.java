package io.memogate.proxy.mysql.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.memogate.proxy.mysql.message.Capabilities;
import io.memogate.proxy.mysql.message.HandshakeResponse;
import io.memogate.proxy.postgres.embedded.SelfSignedCertificate;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client sends its SSLRequest and its TLS ClientHello without waiting in between: the request reaches the
 * session as a packet, the ClientHello the TLS handler, never the packet framer.
 */
class SslRequestSplitterTest {

    private static SslContext server;

    @BeforeAll
    static void certificate(@TempDir Path dir) throws Exception {
        SelfSignedCertificate certificate = SelfSignedCertificate.generate(dir);
        server = SslContextBuilder.forServer(certificate.certificateFile().toFile(), certificate.keyFile().toFile())
                .build();
    }

    private static EmbeddedChannel channel() {
        return new EmbeddedChannel(new SslRequestSplitter(server), MySqlPackets.framer(), new ClientPackets(1024));
    }

    private static ByteBuf sslRequest() {
        ByteBuf packet = Unpooled.buffer();
        MySqlPackets.writeHeader(packet, HandshakeResponse.FIXED_BYTES, 1);   // 32 bytes, sequence id 1
        packet.writeIntLE(Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_SSL);
        packet.writeIntLE(1 << 24).writeByte(45).writeZero(23);                  // max packet, charset, filler
        return packet;
    }

    /** What a TLS client sends first: its ClientHello, made by a real client engine. */
    private static ByteBuf clientHello() throws Exception {
        SslContext client = SslContextBuilder.forClient().trustManager(InsecureTrustManagerFactory.INSTANCE).build();
        EmbeddedChannel tlsClient = new EmbeddedChannel();
        tlsClient.pipeline().addLast(client.newHandler(tlsClient.alloc()));
        ByteBuf hello = Unpooled.buffer();
        for (ByteBuf part; (part = tlsClient.readOutbound()) != null; ) {
            hello.writeBytes(part);
            part.release();
        }
        tlsClient.finishAndReleaseAll();
        return hello;
    }

    @Test
    void anSslRequestAndTheClientHelloInOneReadAreSplitBetweenSessionAndTls() throws Exception {
        EmbeddedChannel channel = channel();
        ByteBuf request = sslRequest();
        byte[] expected = ByteBufUtil.getBytes(request);

        channel.writeInbound(Unpooled.wrappedBuffer(request, clientHello()));

        ByteBuf frame = channel.readInbound();
        assertThat(ByteBufUtil.getBytes(frame)).as(ByteBufUtil.prettyHexDump(frame)).isEqualTo(expected);
        frame.release();
        assertThat((Object) channel.readInbound()).as("nothing of the ClientHello reaches the framer").isNull();
        assertThat(channel.pipeline().get(SslRequestSplitter.class)).isNull();
        assertThat(channel.pipeline().get(SslHandler.class)).isNotNull();
        ByteBuf serverHello = channel.readOutbound();
        assertThat(serverHello).as("the TLS handler answered the ClientHello").isNotNull();
        assertThat(serverHello.getUnsignedByte(serverHello.readerIndex())).as("a TLS handshake record").isEqualTo((short) 22);
        serverHello.release();
        channel.finishAndReleaseAll();
    }

    @Test
    void aLoginFedInFragmentsGoesToTheFramerAsItCame() {
        EmbeddedChannel channel = channel();
        ByteBuf login = Unpooled.buffer();
        MySqlPackets.writeHeader(login, 33, 1);                      // a response: one byte longer than the request
        login.writeIntLE(Capabilities.CLIENT_PROTOCOL_41).writeZero(29);
        byte[] expected = ByteBufUtil.getBytes(login);
        for (byte b : expected) {
            channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {b}));
        }
        login.release();

        ByteBuf frame = channel.readInbound();
        assertThat(ByteBufUtil.getBytes(frame)).as(ByteBufUtil.prettyHexDump(frame)).isEqualTo(expected);
        frame.release();
        assertThat(channel.pipeline().get(SslRequestSplitter.class)).isNull();
        assertThat(channel.pipeline().get(SslHandler.class)).isNull();
        assertFalse(channel.finish());
    }

    @Test
    void aFixedPartWithoutTheSslFlagIsNoRequest() {
        EmbeddedChannel channel = channel();
        ByteBuf packet = Unpooled.buffer();
        MySqlPackets.writeHeader(packet, HandshakeResponse.FIXED_BYTES, 1);
        packet.writeIntLE(Capabilities.CLIENT_PROTOCOL_41).writeZero(28);

        channel.writeInbound(packet);

        ByteBuf frame = channel.readInbound();
        assertThat(MySqlPackets.payloadLength(frame)).isEqualTo(HandshakeResponse.FIXED_BYTES);
        frame.release();
        assertThat(channel.pipeline().get(SslHandler.class)).isNull();
        assertFalse(channel.finish());
    }
}
