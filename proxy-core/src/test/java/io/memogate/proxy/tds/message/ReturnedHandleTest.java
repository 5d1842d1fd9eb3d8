package io.memogate.proxy.tds.message;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

/** The handle of a prepare's answer, before the rows or after them, across packets; none when the prepare failed. */
class ReturnedHandleTest {

    private static final int HEADER = 8;

    private static ByteBuf packet(ByteBuf tokens) {
        ByteBuf packet = Unpooled.buffer().writeZero(HEADER).writeBytes(tokens);
        tokens.release();
        return packet;
    }

    /** RETURNVALUE: ordinal, name, status (output), user type, flags, INTN(4) and the value. */
    private static ByteBuf returnValue(ByteBuf out, String name, int handle) {
        out.writeByte(0xAC).writeShortLE(0).writeByte(name.length())
                .writeCharSequence(name, java.nio.charset.StandardCharsets.UTF_16LE);
        return out.writeByte(1).writeIntLE(0).writeShortLE(0).writeByte(0x26).writeByte(4).writeByte(4).writeIntLE(handle);
    }

    private static ByteBuf done(ByteBuf out, int token) {
        return out.writeByte(token).writeShortLE(0).writeShortLE(0).writeLongLE(0);
    }

    private static ByteBuf rows(int bytes) {
        // COLMETADATA and rows this reader cannot step over, holding bytes that look like tokens
        ByteBuf rows = Unpooled.buffer().writeByte(0x81).writeShortLE(1);
        for (int i = 0; i < bytes; i++) {
            rows.writeByte(i % 3 == 0 ? 0xAC : 0xFE);
        }
        return rows;
    }

    @Test
    void spPreparesAnswerHasTheHandleFirst() {
        ReturnedHandle reader = new ReturnedHandle(true);
        ByteBuf answer = returnValue(Unpooled.buffer(), "@handle", 42).writeByte(0x79).writeIntLE(0);
        ByteBuf packet = packet(done(answer, 0xFE));
        reader.packet(packet, HEADER);
        assertThat(reader.handle()).hasValue(42);
        packet.release();
    }

    @Test
    void spPrepexecsHandleAfterRowsSpreadOverPackets() {
        ReturnedHandle reader = new ReturnedHandle(true);
        ByteBuf first = packet(rows(3000));
        ByteBuf tokens = rows(10);
        done(tokens, 0xFF).writeByte(0x79).writeIntLE(0);
        returnValue(tokens, "", 7);
        returnValue(tokens, "", 99); // a cursor's other output parameters come after the handle
        ByteBuf last = packet(done(tokens, 0xFE));
        reader.packet(first, HEADER);
        reader.packet(last, HEADER);
        assertThat(reader.handle()).hasValue(7);
        first.release();
        last.release();
    }

    @Test
    void aFailedPrepareReturnsNoHandle() {
        ReturnedHandle reader = new ReturnedHandle(true);
        ByteBuf error = Unpooled.buffer().writeByte(0xAA).writeShortLE(4).writeIntLE(0);
        ByteBuf packet = packet(done(error, 0xFE));
        reader.packet(packet, HEADER);
        assertThat(reader.handle()).isEmpty();
        packet.release();
    }
}
