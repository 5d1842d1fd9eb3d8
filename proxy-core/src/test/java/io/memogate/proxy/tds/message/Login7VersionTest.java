package io.memogate.proxy.tds.message;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

/** Which clients send ALL_HEADERS, by the TDS version of their LOGIN7: 7.2 and later and 8.0, not 7.0 nor 7.1. */
class Login7VersionTest {

    private static boolean allHeaders(long version) {
        ByteBuf login = Unpooled.buffer().writeIntLE(94).writeIntLE((int) version).writeIntLE(4096).writeZero(82);
        try {
            return Login7.decode(login).allHeaders();
        } finally {
            login.release();
        }
    }

    @Test
    void tdsSevenOneHasNoneAndLaterVersionsHaveThem() {
        assertThat(allHeaders(0x71000001L)).as("TDS 7.1, as jTDS speaks it").isFalse();
        assertThat(allHeaders(0x70000000L)).as("TDS 7.0").isFalse();
        assertThat(allHeaders(0x72090002L)).as("TDS 7.2").isTrue();
        assertThat(allHeaders(0x74000004L)).as("TDS 7.4").isTrue();
        assertThat(allHeaders(0x08000000L)).as("TDS 8.0 (encrypt=strict)").isTrue();
    }
}
