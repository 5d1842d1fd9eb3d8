package io.memogate.broker.probe.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MemoryUnitsTest {

    @Test
    void pgSettingsUnitsAreConvertedToBytes() {
        assertThat(MemoryUnits.bytes("16384", "8kB")).as("shared_buffers 128MB").isEqualTo(128L << 20);
        assertThat(MemoryUnits.bytes("4096", "kB")).as("work_mem 4MB").isEqualTo(4L << 20);
        assertThat(MemoryUnits.bytes("80", "MB")).as("min_wal_size").isEqualTo(80L << 20);
        assertThat(MemoryUnits.bytes("16777216", "B")).as("wal_segment_size").isEqualTo(16L << 20);
        assertThat(MemoryUnits.bytes("2", "GB")).isEqualTo(2L << 30);
        assertThat(MemoryUnits.bytes("1", "16MB")).isEqualTo(16L << 20);
    }

    @Test
    void valuesThatAreNotSizesAreRejected() {
        assertThatThrownBy(() -> MemoryUnits.bytes("8", "ms")).hasMessage("unit 'ms' is not a memory unit");
        assertThatThrownBy(() -> MemoryUnits.bytes("8", null)).hasMessageContaining("has no unit");
        assertThatThrownBy(() -> MemoryUnits.bytes("4MB", "kB")).hasMessage("value '4MB' is not an integer");
        assertThatThrownBy(() -> MemoryUnits.bytes("-1", "kB")).hasMessage("value -1 is not a size");
        assertThatThrownBy(() -> MemoryUnits.bytes("9223372036854775807", "kB"))
                .hasMessageContaining("overflows");
    }
}
