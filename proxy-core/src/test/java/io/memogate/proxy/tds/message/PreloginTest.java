package io.memogate.proxy.tds.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

/** PRELOGIN's ENCRYPTION and MARS options rewritten in place, every other byte left as it came. */
class PreloginTest {

    private static ByteBuf packet(String data) {
        byte[] body = ByteBufUtil.decodeHexDump(data);
        return Unpooled.buffer().writeByte(18).writeByte(1).writeShort(8 + body.length).writeShort(0)
                .writeByte(1).writeByte(0).writeBytes(body);
    }

    @Test
    void theClientsEncryptionIsRewrittenAndMarsTurnedOff() {
        ByteBuf packet = packet("00" + "0010" + "0006"    // VERSION at 16, 6 bytes
                + "01" + "0016" + "0001"                     // ENCRYPTION at 22
                + "04" + "0017" + "0001"                     // MARS at 23
                + "ff"                                       // terminator (at 15)
                + "0e0000000000" + "00" + "01");             // version, ENCRYPT_OFF, MARS on
        assertThat(Prelogin.rewriteRequest(packet, Prelogin.ENCRYPT_NOT_SUP)).isEqualTo(Prelogin.ENCRYPT_OFF);
        assertThat(ByteBufUtil.hexDump(packet, 8, packet.readableBytes() - 8)).isEqualTo(
                "0000100006" + "0100160001" + "0400170001" + "ff" + "0e0000000000" + "02" + "00");
        packet.release();
    }

    /** A server that answers MARS on (asked by another way, or ignoring the request) is answered off to the client. */
    @Test
    void theServersAnswerGoesToTheClientWithMarsOff() {
        ByteBuf packet = packet("00" + "0010" + "0006"    // VERSION at 16, 6 bytes
                + "01" + "0016" + "0001"                     // ENCRYPTION at 22
                + "04" + "0017" + "0001"                     // MARS at 23
                + "ff"
                + "100003e80000" + "01" + "01");             // version, ENCRYPT_ON, MARS on
        assertThat(Prelogin.rewriteResponse(packet, Prelogin.ENCRYPT_NOT_SUP)).isEqualTo(Prelogin.ENCRYPT_ON);
        assertThat(ByteBufUtil.hexDump(packet, 8, packet.readableBytes() - 8)).isEqualTo(
                "0000100006" + "0100160001" + "0400170001" + "ff" + "100003e80000" + "02" + "00");
        packet.release();
    }

    @Test
    void aTableWithoutItsTerminatorOrPointingOutsideIsMalformed() {
        ByteBuf unterminated = packet("0000050006");
        assertThatThrownBy(() -> Prelogin.rewriteResponse(unterminated, Prelogin.ENCRYPT_OFF)).isInstanceOf(MalformedPacketException.class);
        unterminated.release();
        ByteBuf outside = packet("0100ff0001ff");
        assertThatThrownBy(() -> Prelogin.rewriteResponse(outside, Prelogin.ENCRYPT_OFF)).isInstanceOf(MalformedPacketException.class)
                .hasMessageContaining("outside");
        outside.release();
    }
}
