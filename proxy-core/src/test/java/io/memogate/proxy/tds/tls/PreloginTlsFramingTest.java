package io.memogate.proxy.tds.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.proxy.tds.message.MalformedPacketException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import org.junit.jupiter.api.Test;

/**
 * The PRELOGIN framing of a TDS 7.x TLS handshake: headers stripped on the way in (across fragments), one PRELOGIN
 * message per flush on the way out, and anything but PRELOGIN refused.
 */
class PreloginTlsFramingTest {

    private static EmbeddedChannel channel() throws Exception {
        // A client handler, never added: only its handshake future is watched, and it stays pending.
        SslHandler tls = SslContextBuilder.forClient().trustManager(InsecureTrustManagerFactory.INSTANCE).build()
                .newHandler(Unpooled.EMPTY_BUFFER.alloc());
        return new EmbeddedChannel(new PreloginTlsFraming(tls));
    }

    @Test
    void packetsComeInWithoutTheirHeadersWhateverTheFragments() throws Exception {
        EmbeddedChannel channel = channel();
        ByteBuf packets = Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump(
                "12" + "00" + "000b" + "0000" + "01" + "00" + "160301"      // PRELOGIN, not last, 3 bytes of a record
                + "12" + "01" + "000a" + "0000" + "02" + "00" + "0005"));   // PRELOGIN, end of message, 2 more
        channel.writeInbound(packets.readRetainedSlice(5));
        assertThat((Object) channel.readInbound()).isNull();
        channel.writeInbound(packets.readRetainedSlice(packets.readableBytes()));
        packets.release();
        ByteBuf first = channel.readInbound();
        ByteBuf second = channel.readInbound();
        assertThat(ByteBufUtil.hexDump(first) + ByteBufUtil.hexDump(second)).isEqualTo("1603010005");
        first.release();
        second.release();
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void whatIsWrittenUntilAFlushGoesOutAsOnePreloginMessage() throws Exception {
        EmbeddedChannel channel = channel();
        channel.write(Unpooled.wrappedBuffer(new byte[] {0x16, 0x03, 0x03}));
        channel.write(Unpooled.wrappedBuffer(new byte[] {0x14, 0x03}));
        assertThat((Object) channel.readOutbound()).isNull();
        channel.flush();
        ByteBuf message = channel.readOutbound();
        assertThat(ByteBufUtil.hexDump(message)).isEqualTo(
                "12" + "01" + "000d" + "0000" + "01" + "00" + "1603031403"); // PRELOGIN, end of message, 13 bytes
        message.release();
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void anotherPacketTypeDuringTheHandshakeIsMalformed() throws Exception {
        EmbeddedChannel channel = channel();
        ByteBuf login = Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump("10" + "01" + "0009" + "0000" + "01" + "00" + "ff"));
        assertThatThrownBy(() -> channel.writeInbound(login)).isInstanceOf(DecoderException.class)
                .hasCauseInstanceOf(MalformedPacketException.class).hasMessageContaining("type 16");
        assertThat(channel.finish()).isFalse();
    }
}
