package io.memogate.proxy.mysql.message;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.proxy.admin.ResultTable;
import io.memogate.proxy.mysql.codec.MySqlPackets;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The admin console's packets: its result sets in each shape, and the login relayed without its schema. */
class ConsolePacketsTest {

    private static final ResultTable TABLE = ResultTable.of("tier", "fraction").row("small", "0.25").row("large", null)
            .build();

    @Test
    void withDeprecateEofNoEofFollowsTheColumnsAndAnOkWithHeaderFeEndsTheRows() {
        List<ByteBuf> packets = packets(new TextResultSet.Shape(true, false));

        assertThat(packets).hasSize(1 + 2 + 2 + 1);
        assertThat(packets).extracting(MySqlPackets::sequenceId).containsExactly(3, 4, 5, 6, 7, 8);
        assertThat(payload(packets.get(0))).containsExactly(2);
        assertThat(payload(packets.get(1))).startsWith(3, 'd', 'e', 'f', 0, 0, 0, 4, 't', 'i', 'e', 'r', 4, 't', 'i', 'e',
                'r', 0x0C);
        assertThat(payload(packets.get(3))).as("length-encoded strings").containsExactly(5, 's', 'm', 'a', 'l', 'l', 4,
                '0', '.', '2', '5');
        assertThat(payload(packets.get(4))).as("NULL is 0xFB").containsExactly(5, 'l', 'a', 'r', 'g', 'e', 0xFB);
        assertThat(payload(packets.get(5))).as("OK with the EOF header, autocommit").containsExactly(0xFE, 0, 0, 2, 0, 0, 0);
        packets.forEach(ByteBuf::release);
    }

    @Test
    void withoutDeprecateEofEofPacketsCloseTheColumnsAndTheRows() {
        List<ByteBuf> packets = packets(new TextResultSet.Shape(false, false));

        assertThat(packets).hasSize(1 + 2 + 1 + 2 + 1);
        assertThat(payload(packets.get(3))).containsExactly(0xFE, 0, 0, 2, 0);
        assertThat(payload(packets.get(6))).containsExactly(0xFE, 0, 0, 2, 0);
        packets.forEach(ByteBuf::release);
    }

    @Test
    void mariaDbExtendedMetadataAddsAnEmptyTypeInfoBeforeTheFixedFields() {
        List<ByteBuf> packets = packets(new TextResultSet.Shape(true, true));

        int[] column = payload(packets.get(1));
        assertThat(column[17]).as("no extended type information").isZero();
        assertThat(column[18]).isEqualTo(0x0C);
        assertThat(column).hasSize(19 + 12);
        assertThat(column[19 + 6]).as("VAR_STRING").isEqualTo(0xFD);
        packets.forEach(ByteBuf::release);
    }

    @Test
    void theConsoleLoginIsRelayedWithAnEmptySchemaAndTheRestAsItWas() {
        int capabilities = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_SECURE_CONNECTION
                | Capabilities.CLIENT_PLUGIN_AUTH | Capabilities.CLIENT_CONNECT_WITH_DB;
        ByteBuf payload = Unpooled.buffer().writeIntLE(capabilities).writeIntLE(1 << 24).writeByte(45).writeZero(23);
        payload.writeBytes("dba\0".getBytes(StandardCharsets.UTF_8)).writeByte(3).writeBytes(new byte[] {7, 8, 9});
        payload.writeBytes("memogate\0mysql_native_password\0".getBytes(StandardCharsets.UTF_8));
        int length = payload.readableBytes();
        ByteBuf frame = Unpooled.buffer();
        MySqlPackets.writeHeader(frame, length, 1);
        frame.writeBytes(payload);
        HandshakeResponse response = HandshakeResponse.rewrite(frame, false);
        assertThat(response.database()).isEqualTo("memogate");

        ByteBuf relayed = HandshakeResponse.withoutDatabase(frame, UnpooledByteBufAllocator.DEFAULT);

        assertThat(MySqlPackets.sequenceId(relayed)).isEqualTo(1);
        assertThat(MySqlPackets.payloadLength(relayed)).isEqualTo(length - "memogate".length());
        HandshakeResponse again = HandshakeResponse.rewrite(relayed, false);
        assertThat(again.user()).isEqualTo("dba");
        assertThat(again.database()).isEmpty();
        assertThat(again.capabilities() & Capabilities.CLIENT_CONNECT_WITH_DB).as("as the SSLRequest said").isNotZero();
        assertThat(relayed.toString(StandardCharsets.UTF_8)).endsWith("\u0003\u0007\u0008\u0009\0mysql_native_password\0");
        frame.release();
        relayed.release();
        payload.release();
    }

    private static List<ByteBuf> packets(TextResultSet.Shape shape) {
        ByteBuf out = Unpooled.buffer();
        TextResultSet.encode(TABLE, shape, 3, out);
        List<ByteBuf> packets = new ArrayList<>();
        while (out.isReadable()) {
            packets.add(out.readRetainedSlice(MySqlPackets.HEADER_BYTES + MySqlPackets.payloadLength(out)));
        }
        out.release();
        return packets;
    }

    private static int[] payload(ByteBuf packet) {
        ByteBuf payload = MySqlPackets.payload(packet);
        int[] bytes = new int[payload.readableBytes()];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = payload.getUnsignedByte(i);
        }
        return bytes;
    }
}
