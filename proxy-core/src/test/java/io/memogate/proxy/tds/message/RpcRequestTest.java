package io.memogate.proxy.tds.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The text an RPC runs now: sp_executesql's and sp_prepexec's, as NVARCHAR or PLP; none for other procedures. */
class RpcRequestTest {

    private static ByteBuf request() {
        return Unpooled.buffer().writeIntLE(4); // ALL_HEADERS with no header
    }

    private static void nvarcharParameter(ByteBuf out, String text) {
        out.writeByte(0).writeByte(0);                         // no name, status
        out.writeByte(0xE7).writeShortLE(8000).writeZero(5);  // NVARCHAR(4000), collation
        out.writeShortLE(text.length() * 2);
        out.writeCharSequence(text, StandardCharsets.UTF_16LE);
    }

    @Test
    void spExecutesqlByProcIdGivesItsStatement() {
        ByteBuf rpc = request().writeShortLE(0xFFFF).writeShortLE(10).writeShortLE(0);
        nvarcharParameter(rpc, "SELECT a FROM t WHERE b = @P0");
        assertThat(RpcRequest.statementText(rpc)).contains("SELECT a FROM t WHERE b = @P0");
        rpc.release();
    }

    @Test
    void spPrepexecByNameGivesItsThirdParameterEvenInChunks() {
        ByteBuf rpc = request().writeShortLE(11);
        rpc.writeCharSequence("sp_prepexec", StandardCharsets.UTF_16LE);
        rpc.writeShortLE(0);
        rpc.writeByte(0).writeByte(1).writeByte(0x26).writeByte(4).writeByte(0); // @handle: INTN(4), NULL, output
        nvarcharParameter(rpc, "@P0 int");
        rpc.writeByte(0).writeByte(0).writeByte(0xE7).writeShortLE(0xFFFF).writeZero(5); // NVARCHAR(MAX): PLP
        rpc.writeLongLE(-2);                                                             // length unknown
        rpc.writeIntLE(4);
        rpc.writeCharSequence("SE", StandardCharsets.UTF_16LE);
        rpc.writeIntLE(8);
        rpc.writeCharSequence("LECT", StandardCharsets.UTF_16LE);
        rpc.writeIntLE(0);                                                               // last chunk
        assertThat(RpcRequest.statementText(rpc)).contains("SELECT");
        rpc.release();
    }

    @Test
    void anotherProcedureGivesNoneAndACutRequestIsMalformed() {
        ByteBuf other = request().writeShortLE(0xFFFF).writeShortLE(12).writeShortLE(0); // sp_execute by handle
        assertThat(RpcRequest.statementText(other)).isEmpty();
        other.release();
        ByteBuf cut = request().writeShortLE(0xFFFF).writeShortLE(10).writeShortLE(0).writeByte(0);
        assertThatThrownBy(() -> RpcRequest.statementText(cut)).isInstanceOf(MalformedPacketException.class);
        cut.release();
    }
}
