package io.memogate.proxy.tds.message;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The account an NTLM AUTHENTICATE message names, for the console; anything else names no one. */
class NtlmAuthenticateTest {

    /** An AUTHENTICATE message: the 64-byte fixed part, then the domain and the user name, then 24 response bytes. */
    private static ByteBuf authenticate(int type, String domain, String user, Charset charset, int flags) {
        byte[] domainBytes = domain.getBytes(charset);
        byte[] userBytes = user.getBytes(charset);
        ByteBuf message = Unpooled.buffer().writeBytes("NTLMSSP\0".getBytes(StandardCharsets.US_ASCII))
                .writeIntLE(type);
        int payload = 64 + domainBytes.length + userBytes.length;
        message.writeShortLE(24).writeShortLE(24).writeIntLE(payload);              // LmChallengeResponse
        message.writeShortLE(24).writeShortLE(24).writeIntLE(payload + 24);         // NtChallengeResponse
        message.writeShortLE(domainBytes.length).writeShortLE(domainBytes.length).writeIntLE(64);
        message.writeShortLE(userBytes.length).writeShortLE(userBytes.length).writeIntLE(64 + domainBytes.length);
        message.writeShortLE(0).writeShortLE(0).writeIntLE(payload);                // Workstation
        message.writeShortLE(0).writeShortLE(0).writeIntLE(payload);                // EncryptedRandomSessionKey
        message.writeIntLE(flags);
        return message.writeBytes(domainBytes).writeBytes(userBytes).writeZero(48);
    }

    @Test
    void aUnicodeAuthenticateNamesDomainAndUser() {
        ByteBuf message = authenticate(3, "MEMOGATE", "memo", StandardCharsets.UTF_16LE, 0x88201);
        assertThat(NtlmAuthenticate.account(message)).contains("MEMOGATE\\memo");
        assertThat(message.readerIndex()).isZero();
        message.release();
    }

    @Test
    void anOemAuthenticateIsReadAsAsciiAndAnEmptyDomainLeavesTheUserAlone() {
        ByteBuf message = authenticate(3, "", "memo", StandardCharsets.US_ASCII, 0x8202);
        assertThat(NtlmAuthenticate.account(message)).contains("memo");
        message.release();
    }

    @Test
    void otherTokensAndBrokenMessagesNameNoOne() {
        ByteBuf negotiate = authenticate(1, "MEMOGATE", "memo", StandardCharsets.UTF_16LE, 0x1);
        ByteBuf spnego = Unpooled.buffer().writeByte(0x60).writeByte(0x82).writeZero(80);
        ByteBuf cut = authenticate(3, "MEMOGATE", "memo", StandardCharsets.UTF_16LE, 0x1);
        cut.writerIndex(70);                                                        // the user name cut off
        ByteBuf shorter = Unpooled.wrappedBuffer("NTLMSSP\0".getBytes(StandardCharsets.US_ASCII));
        for (ByteBuf message : new ByteBuf[] {negotiate, spnego, cut, shorter}) {
            assertThat(NtlmAuthenticate.account(message)).isEmpty();
            message.release();
        }
    }
}
