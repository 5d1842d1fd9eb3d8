package io.memogate.proxy.tds.message;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A LOGIN7 repeated toward the server a Routing ENVCHANGE named: its ServerName changed, every string and the
 * FeatureExt block still where its offsets say, the rest of the bytes as they came.
 */
class Login7ServerNameTest {

    private static final int[] FIELDS = {36, 40, 44, 48, 52, 60, 64, 68, 82, 86};
    private static final String[] VALUES = {"client-host", "memo", "obfuscated", "app", "127.0.0.1", "ODBC",
        "us_english", "demo", "", ""};
    /** A FeatureExt block: feature 0x0A (UTF-8 support) with 1 byte of data, then the terminator. */
    private static final byte[] FEATURES = ByteBufUtil.decodeHexDump("0a0100000001ff");

    /** A TDS 7.4 LOGIN7 with the strings above (in field order), then the FeatureExt offset and block. */
    private static ByteBuf login7(boolean extension) {
        ByteBuf data = Unpooled.buffer();
        data.writeZero(94);
        data.setIntLE(4, 0x74000004);
        data.setIntLE(8, 4096);
        if (extension) {
            data.setByte(27, 0x10); // OptionFlags3: fExtension
        }
        for (int i = 0; i < FIELDS.length; i++) {
            data.setShortLE(FIELDS[i], data.writerIndex());
            data.setShortLE(FIELDS[i] + 2, VALUES[i].length());
            data.writeBytes(VALUES[i].getBytes(StandardCharsets.UTF_16LE));
        }
        data.setShortLE(78, data.writerIndex()); // SSPI: none, pointing past the strings
        if (extension) {
            int pointer = data.writerIndex();
            data.setShortLE(56, pointer);
            data.setShortLE(58, 4);
            data.writeIntLE(pointer + 4);
            data.writeBytes(FEATURES);
        }
        data.setIntLE(0, data.writerIndex());
        return data;
    }

    private static String string(ByteBuf data, int field) {
        int offset = data.getUnsignedShortLE(field);
        int chars = data.getUnsignedShortLE(field + 2);
        return data.toString(offset, 2 * chars, StandardCharsets.UTF_16LE);
    }

    @Test
    void theRoutedNameReplacesServerNameAndEveryOffsetAfterItMoves() {
        ByteBuf original = login7(true);
        ByteBuf routed = Login7.routedTo(original, "replica2.example.net\\READONLY", Optional.empty(),
                ByteBufAllocator.DEFAULT);
        try {
            int grown = 2 * ("replica2.example.net\\READONLY".length() - "127.0.0.1".length());
            assertThat(routed.readableBytes()).isEqualTo(original.readableBytes() + grown);
            assertThat(routed.getIntLE(0)).as("LOGIN7's Length").isEqualTo(routed.readableBytes());
            assertThat(string(routed, 52)).isEqualTo("replica2.example.net\\READONLY");
            for (int i = 0; i < FIELDS.length; i++) {
                if (FIELDS[i] != 52) {
                    assertThat(string(routed, FIELDS[i])).as("field at %d", FIELDS[i]).isEqualTo(VALUES[i]);
                }
            }
            int pointer = routed.getUnsignedShortLE(56);
            int features = (int) routed.getUnsignedIntLE(pointer);
            assertThat(ByteBufUtil.hexDump(routed, features, FEATURES.length)).as("the FeatureExt block")
                    .isEqualTo(ByteBufUtil.hexDump(FEATURES));
            assertThat(routed.getUnsignedShortLE(78)).as("SSPI's offset").isEqualTo(original.getUnsignedShortLE(78) + grown);
            assertThat(ByteBufUtil.hexDump(routed, 4, 32)).as("version, packet size, flags: unchanged")
                    .isEqualTo(ByteBufUtil.hexDump(original, 4, 32));
            Login7 decoded = Login7.decode(routed);
            assertThat(decoded.user()).isEqualTo("memo");
            assertThat(decoded.database()).isEqualTo("demo");
        } finally {
            original.release();
            routed.release();
        }
    }

    /** Enhanced routing names a database too: Database changes, the strings after it move with it. */
    @Test
    void anEnhancedRoutingsDatabaseReplacesTheClientsToo() {
        ByteBuf original = login7(true);
        ByteBuf routed = Login7.routedTo(original, "node2", Optional.of("sales_replica"), ByteBufAllocator.DEFAULT);
        try {
            assertThat(string(routed, 52)).isEqualTo("node2");
            assertThat(string(routed, 68)).isEqualTo("sales_replica");
            assertThat(string(routed, 64)).isEqualTo("us_english");
            assertThat(string(routed, 40)).isEqualTo("memo");
            int features = (int) routed.getUnsignedIntLE(routed.getUnsignedShortLE(56));
            assertThat(ByteBufUtil.hexDump(routed, features, FEATURES.length)).isEqualTo(ByteBufUtil.hexDump(FEATURES));
            assertThat(routed.getIntLE(0)).isEqualTo(routed.readableBytes());
        } finally {
            original.release();
            routed.release();
        }
    }

    @Test
    void integratedSecurityIsReadFromOptionFlags2() {
        ByteBuf login = login7(false);
        try {
            assertThat(Login7.integratedSecurity(login)).isFalse();
            login.setByte(25, 0x80); // OptionFlags2: fIntSecurity
            assertThat(Login7.integratedSecurity(login)).isTrue();
        } finally {
            login.release();
        }
    }

    @Test
    void aShorterNameShrinksTheMessage() {
        ByteBuf original = login7(false);
        ByteBuf routed = Login7.routedTo(original, "db", Optional.empty(), ByteBufAllocator.DEFAULT);
        try {
            assertThat(routed.readableBytes()).isEqualTo(original.readableBytes() - 2 * 7);
            assertThat(string(routed, 52)).isEqualTo("db");
            assertThat(string(routed, 68)).isEqualTo("demo");
            assertThat(string(routed, 48)).as("a string before ServerName stays").isEqualTo("app");
        } finally {
            original.release();
            routed.release();
        }
    }
}
