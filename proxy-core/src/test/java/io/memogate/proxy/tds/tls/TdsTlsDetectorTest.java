package io.memogate.proxy.tds.tls;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.util.SelfSignedCertificate;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The first byte of a TDS connection: a PRELOGIN goes on untouched, a TLS record starts TDS 8.0's TLS. */
class TdsTlsDetectorTest {

    private static final String PRELOGIN_START = "12" + "01" + "002f" + "0000" + "01" + "00"; // PRELOGIN header

    @Test
    void aPreloginPassesAsItCameAndTheDetectorLeaves() {
        EmbeddedChannel channel = new EmbeddedChannel(new TdsTlsDetector(Optional.empty()));
        channel.writeInbound(Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump(PRELOGIN_START)));
        ByteBuf passed = channel.readInbound();
        assertThat(ByteBufUtil.hexDump(passed)).isEqualTo(PRELOGIN_START);
        passed.release();
        assertThat(channel.pipeline().get(TdsTlsDetector.class)).isNull();
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void aTlsRecordOnAListenerWithoutCertificateClosesTheConnection() {
        EmbeddedChannel channel = new EmbeddedChannel(new TdsTlsDetector(Optional.empty()));
        channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {0x16, 0x03, 0x01}));
        assertThat(channel.isOpen()).isFalse();
        assertThat((Object) channel.readInbound()).isNull();
    }

    @Test
    void aTlsRecordPutsTheStrictListenersHandlerInItsPlace() throws Exception {
        SelfSignedCertificate certificate = new SelfSignedCertificate("localhost");
        try {
            EmbeddedChannel channel = new EmbeddedChannel(new TdsTlsDetector(Optional.of(
                    SslContextBuilder.forServer(certificate.certificate(), certificate.privateKey()).build())));
            channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {0x16}));
            assertThat(channel.pipeline().get(TdsTlsDetector.TLS_HANDLER)).isInstanceOf(SslHandler.class);
            assertThat(channel.pipeline().get(TdsTlsDetector.class)).isNull();
            channel.finishAndReleaseAll();
        } finally {
            certificate.delete();
        }
    }
}
