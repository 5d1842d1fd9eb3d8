package io.memogate.proxy.tds.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** What an RPC carries: the statement (NVARCHAR, PLP, NTEXT) of the procedures that run or prepare one, the handle of those that name one. */
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
        ByteBuf other = request().writeShortLE(0xFFFF).writeShortLE(1).writeShortLE(0); // sp_cursor
        assertThat(RpcRequest.read(other).procedure()).isEqualTo(RpcCall.Procedure.OTHER);
        assertThat(RpcRequest.statementText(other)).isEmpty();
        other.release();
        ByteBuf cut = request().writeShortLE(0xFFFF).writeShortLE(10).writeShortLE(0).writeByte(0);
        assertThatThrownBy(() -> RpcRequest.statementText(cut)).isInstanceOf(MalformedPacketException.class);
        cut.release();
    }

    @Test
    void aRequestEndingBeforeItsStatementOrHandleGivesNoneAndIsNotMalformed() {
        // well-formed TDS with a parameter missing: the server answers error 201 and the connection goes on
        ByteBuf bare = request().writeShortLE(0xFFFF).writeShortLE(10).writeShortLE(0);    // sp_executesql alone
        assertThat(RpcRequest.read(bare).text()).isEmpty();
        bare.release();
        ByteBuf prepexec = request().writeShortLE(0xFFFF).writeShortLE(13).writeShortLE(0);
        prepexec.writeByte(0).writeByte(1).writeByte(0x26).writeByte(4).writeByte(0);      // @handle only
        assertThat(RpcRequest.read(prepexec).text()).isEmpty();
        prepexec.release();
        ByteBuf execute = request().writeShortLE(0xFFFF).writeShortLE(12).writeShortLE(0); // sp_execute, no handle
        assertThat(RpcRequest.read(execute).handle()).isEmpty();
        execute.release();
        ByteBuf batch = request().writeShortLE(0xFFFF).writeShortLE(10).writeShortLE(0).writeByte(0xFF);
        batch.writeShortLE(0xFFFF).writeShortLE(10).writeShortLE(0);                        // then another request
        nvarcharParameter(batch, "SELECT 2");
        RpcBatch both = RpcRequest.readAll(batch);
        assertThat(both.calls()).extracting(RpcCall::text).containsExactly(java.util.Optional.empty(),
                java.util.Optional.of("SELECT 2"));
        assertThat(both.allRead()).isTrue();
        batch.release();
    }

    @Test
    void spExecuteAndSpUnprepareNameTheirHandle() {
        ByteBuf execute = request().writeShortLE(0xFFFF).writeShortLE(12).writeShortLE(0);
        execute.writeByte(0).writeByte(0).writeByte(0x26).writeByte(4).writeByte(4).writeIntLE(7); // @handle = 7
        RpcCall call = RpcRequest.read(execute);
        assertThat(call.procedure().executesHandle()).isTrue();
        assertThat(call.handle()).hasValue(7);
        assertThat(call.text()).isEmpty();
        execute.release();
        ByteBuf unprepare = request().writeShortLE(12);
        unprepare.writeCharSequence("sp_unprepare", StandardCharsets.UTF_16LE);
        unprepare.writeShortLE(0).writeByte(0).writeByte(0).writeByte(0x26).writeByte(4).writeByte(4).writeIntLE(9);
        assertThat(RpcRequest.read(unprepare)).satisfies(dropped -> {
            assertThat(dropped.procedure().dropsHandle()).isTrue();
            assertThat(dropped.handle()).hasValue(9);
        });
        unprepare.release();
    }

    /** sp_cursorprepexec's statement is its fourth parameter, here as NTEXT (as older drivers send a long text). */
    @Test
    void spCursorprepexecGivesItsFourthParameterSentAsNtext() {
        ByteBuf rpc = request().writeShortLE(0xFFFF).writeShortLE(5).writeShortLE(0);
        rpc.writeByte(0).writeByte(1).writeByte(0x26).writeByte(4).writeByte(0); // @handle OUTPUT, NULL
        rpc.writeByte(0).writeByte(1).writeByte(0x26).writeByte(4).writeByte(0); // @cursor OUTPUT, NULL
        nvarcharParameter(rpc, "");                                              // no declarations
        String text = "SELECT x FROM big";
        rpc.writeByte(0).writeByte(0).writeByte(0x63).writeIntLE(0x7FFFFFFE).writeZero(5); // NTEXT, collation
        rpc.writeIntLE(text.length() * 2).writeCharSequence(text, StandardCharsets.UTF_16LE);
        RpcCall call = RpcRequest.read(rpc);
        assertThat(call.procedure().returnsHandle()).isTrue();
        assertThat(call.procedure().cursor()).isTrue();
        assertThat(call.text()).contains(text);
        rpc.release();
    }

    @Test
    void aTextLongerThanTheRequestIsMalformed() {
        ByteBuf rpc = request().writeShortLE(0xFFFF).writeShortLE(10).writeShortLE(0);
        rpc.writeByte(0).writeByte(0).writeByte(0x63).writeIntLE(0x7FFFFFFE).writeZero(5).writeIntLE(1_000_000);
        assertThatThrownBy(() -> RpcRequest.read(rpc)).isInstanceOf(MalformedPacketException.class)
                .hasMessageContaining("longer than the request");
        rpc.release();
    }

    /** Requests after a BatchFlag are read, stepping over parameters of other types (a DECIMAL, a PLP NULL). */
    @Test
    void everyRequestOfABatchIsRead() {
        ByteBuf rpc = request().writeShortLE(0xFFFF).writeShortLE(10).writeShortLE(0);
        nvarcharParameter(rpc, "SELECT 1");
        rpc.writeByte(0).writeByte(0).writeByte(0x6A).writeByte(9).writeByte(10).writeByte(2)  // DECIMALN(10, 2)
                .writeByte(5).writeByte(1).writeIntLE(1234);
        rpc.writeByte(0).writeByte(0).writeByte(0xE7).writeShortLE(0xFFFF).writeZero(5).writeLongLE(-1); // NULL
        rpc.writeByte(0xFF);                                                                        // BatchFlag
        rpc.writeShortLE(0xFFFF).writeShortLE(12).writeShortLE(0);
        rpc.writeByte(0).writeByte(0).writeByte(0x26).writeByte(4).writeByte(4).writeIntLE(3);
        RpcBatch batch = RpcRequest.readAll(rpc);
        assertThat(batch.allRead()).isTrue();
        assertThat(batch.calls()).hasSize(2);
        assertThat(batch.calls().get(0).text()).contains("SELECT 1");
        assertThat(batch.calls().get(1).handle()).hasValue(3);
        rpc.release();
    }

    @Test
    void aParameterOfATypeNotSteppedOverEndsTheReading() {
        ByteBuf rpc = request().writeShortLE(0xFFFF).writeShortLE(10).writeShortLE(0);
        nvarcharParameter(rpc, "SELECT 1");
        rpc.writeByte(0).writeByte(0).writeByte(0xF3);                                              // a TVP
        RpcBatch batch = RpcRequest.readAll(rpc);
        assertThat(batch.allRead()).isFalse();
        assertThat(batch.calls()).singleElement().satisfies(call -> assertThat(call.text()).contains("SELECT 1"));
        rpc.release();
    }

    /** A TDS 7.1 client (jTDS) sends no ALL_HEADERS: its request begins with the procedure. */
    @Test
    void aTds71RequestHasNoAllHeaders() {
        ByteBuf rpc = Unpooled.buffer().writeShortLE(0xFFFF).writeShortLE(10).writeShortLE(0);
        nvarcharParameter(rpc, "SELECT 71");
        assertThat(RpcRequest.readAll(rpc, false).calls()).singleElement()
                .satisfies(call -> assertThat(call.text()).contains("SELECT 71"));
        rpc.release();
    }
}
