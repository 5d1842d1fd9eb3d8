package io.memogate.proxy.tls;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.proxy.config.ServerTlsConfig;
import io.memogate.proxy.postgres.embedded.SelfSignedCertificate;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectTlsDetectorTest {

    /** An SSLRequest: length 8, then the request code 1234 5679 (0x04d2162f). */
    private static final byte[] SSL_REQUEST = {0, 0, 0, 8, 0x04, (byte) 0xd2, 0x16, 0x2f};

    /** A startup packet's length word starts with a zero byte, which no TLS record does: told at once. */
    @Test
    void aStartupPacketPassesOnUntouchedFromItsFirstByteAndTheDetectorLeaves() {
        EmbeddedChannel channel = new EmbeddedChannel(new DirectTlsDetector(Optional.empty()));

        channel.writeInbound(Unpooled.wrappedBuffer(SSL_REQUEST, 0, 3));
        assertThat(channel.pipeline().get(DirectTlsDetector.class)).as("gone after one byte").isNull();
        channel.writeInbound(Unpooled.wrappedBuffer(SSL_REQUEST, 3, 5));
        ByteBuf passed = Unpooled.buffer();
        for (ByteBuf part; (part = channel.readInbound()) != null; part.release()) {
            passed.writeBytes(part);
        }
        assertThat(ByteBufUtil.getBytes(passed)).isEqualTo(SSL_REQUEST);
        passed.release();
        assertThat(channel.isOpen()).isTrue();
    }

    /**
     * PostgreSQL tells direct TLS by a first byte of 0x16 alone; any other byte starts a startup packet, even
     * one whose length word is out of range, which the startup framer then refuses at once instead of the
     * connection waiting for a fifth byte until the login timeout.
     */
    @Test
    void aFirstByteThatStartsNoHandshakeRecordIsAStartupPacketAtOnce() {
        EmbeddedChannel channel = new EmbeddedChannel(new DirectTlsDetector(Optional.empty()));

        channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff}));

        assertThat(channel.pipeline().get(DirectTlsDetector.class)).as("decided on four bytes").isNull();
        ByteBuf passed = channel.readInbound();
        assertThat(passed.readableBytes()).isEqualTo(4);
        passed.release();
        channel.finishAndReleaseAll();
    }

    @Test
    void whatMayStartATlsRecordWaitsForItsHeader() {
        EmbeddedChannel channel = new EmbeddedChannel(new DirectTlsDetector(Optional.empty()));
        channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {0x16, 0x03}));
        assertThat(channel.<ByteBuf>readInbound()).as("too few bytes to tell yet").isNull();
        assertThat(channel.pipeline().get(DirectTlsDetector.class)).isNotNull();
        channel.finishAndReleaseAll();
    }

    @Test
    void aTlsHandshakeOnAListenerWithoutTlsClosesTheConnectionAndPassesNothingOn() throws Exception {
        EmbeddedChannel channel = new EmbeddedChannel(new DirectTlsDetector(Optional.empty()));

        channel.writeInbound(clientHello());

        assertThat(channel.<ByteBuf>readInbound()).isNull();
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void aTlsHandshakePutsTlsInFrontAndTheBufferedHelloIsAnswered(@TempDir Path dir) throws Exception {
        SelfSignedCertificate certificate = SelfSignedCertificate.generate(dir);
        SslContext tls = TlsContexts.forListener(
                new ServerTlsConfig(certificate.certificateFile(), certificate.keyFile()), "listeners[0].tls");
        EmbeddedChannel channel = new EmbeddedChannel(new DirectTlsDetector(Optional.of(tls)));

        channel.writeInbound(clientHello());

        assertThat(channel.pipeline().get(DirectTlsDetector.class)).isNull();
        assertThat(channel.pipeline().get(DirectTlsDetector.TLS_HANDLER)).isInstanceOf(SslHandler.class);
        ByteBuf serverHello = channel.readOutbound();
        assertThat(serverHello).as("the TLS handler answered the hello the detector had read").isNotNull();
        assertThat(serverHello.getByte(0)).as("a TLS handshake record").isEqualTo((byte) 22);
        serverHello.release();
        channel.finishAndReleaseAll();
    }

    /** The first flight of a JDK TLS client, as it would arrive on the socket. */
    private static ByteBuf clientHello() throws Exception {
        SSLEngine client = SSLContext.getDefault().createSSLEngine("localhost", 6432);
        client.setUseClientMode(true);
        ByteBuffer out = ByteBuffer.allocate(client.getSession().getPacketBufferSize());
        client.wrap(ByteBuffer.allocate(0), out);
        out.flip();
        return Unpooled.wrappedBuffer(out);
    }
}
