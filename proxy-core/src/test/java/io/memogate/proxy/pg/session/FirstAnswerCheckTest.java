package io.memogate.proxy.pg.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class FirstAnswerCheckTest {

    /** A MariaDB greeting: a 3-byte little-endian length, a sequence number 0, protocol 10, the version. */
    private static ByteBuf mysqlGreeting(int payloadLength) {
        ByteBuf greeting = Unpooled.buffer();
        greeting.writeMediumLE(payloadLength).writeByte(0).writeByte(10);
        greeting.writeBytes("5.5.5-10.11.6-MariaDB-0+deb12u1".getBytes(StandardCharsets.US_ASCII)).writeByte(0);
        greeting.writeZero(payloadLength - greeting.readableBytes() + 4);
        return greeting;
    }

    @Test
    void aFirstByteNoPostgresqlMessageHasIsNamed() {
        assertThat(FirstAnswerCheck.problem(Unpooled.copiedBuffer("HTTP/1.1 400", StandardCharsets.US_ASCII)))
                .isEqualTo("its first byte was 0x48 ('H')");
        assertThat(FirstAnswerCheck.problem(mysqlGreeting(100))).isEqualTo("its first byte was 0x64 ('d')");
    }

    /** Greetings of 82, 69 and 78 bytes start with 'R', 'E' and 'N': their fields give them away. */
    @Test
    void aMysqlGreetingThatStartsLikeAPostgresqlMessageIsToldByItsFields() {
        assertThat(FirstAnswerCheck.problem(mysqlGreeting(82)))
                .startsWith("its first message was an authentication request of a kind PostgreSQL has not");
        assertThat(FirstAnswerCheck.problem(mysqlGreeting(69)))
                .isEqualTo("its first message, an error by its first byte, does not end its fields with a zero"
                        + " byte");
        assertThat(FirstAnswerCheck.problem(mysqlGreeting(78))).contains("a notice by its first byte");
    }

    @Test
    void postgresqlsFirstMessagesPass() {
        HexFormat hex = HexFormat.of();
        assertThat(FirstAnswerCheck.problem(Unpooled.wrappedBuffer(hex.parseHex("52" + "00000008" + "00000000"))))
                .as("AuthenticationOk").isNull();
        assertThat(FirstAnswerCheck.problem(Unpooled.wrappedBuffer(hex.parseHex("52" + "00000017" + "0000000a"
                + "534352414d2d5348412d3235360000")))) // AuthenticationSASL, SCRAM-SHA-256
                .as("AuthenticationSASL").isNull();
        assertThat(FirstAnswerCheck.problem(Unpooled.wrappedBuffer(hex.parseHex(
                "45" + "0000000c" + "43334430303000" + "00")))).as("ErrorResponse, code 3D000").isNull();
        assertThat(FirstAnswerCheck.problem(Unpooled.wrappedBuffer(hex.parseHex("52" + "0000"))))
                .as("too little to tell").isNull();
    }
}
