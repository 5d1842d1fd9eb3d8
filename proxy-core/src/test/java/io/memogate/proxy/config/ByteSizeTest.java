package io.memogate.proxy.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ByteSizeTest {

    @ParameterizedTest(name = "{0} = {1} bytes")
    @CsvSource({
            "1048576, 1048576",
            "0, 0",
            "100B, 100",
            "1kB, 1024",        // PostgreSQL's kB is 1024 bytes, not 1000
            "1KiB, 1024",
            "16MB, 16777216",
            "64MiB, 67108864",
            "1GB, 1073741824",
            "1GiB, 1073741824",
            "'64 MB', 67108864", // PostgreSQL accepts blanks between number and unit
            "' 2MiB ', 2097152",
    })
    void parsesNumbersAndUnitsAsPostgresqlDoes(String text, long bytes) {
        assertThat(ByteSize.parse(text).bytes()).isEqualTo(bytes);
    }

    @ParameterizedTest
    @ValueSource(strings = {"12XB", "", "MiB", "-1", "+1", "1.5GiB", "64mb", "64KB", "64 M", "0x10", "1e6", "64MiBs"})
    void rejectsAnythingElseNamingTheAcceptedUnits(String text) {
        assertThatThrownBy(() -> ByteSize.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("'" + text + "' is not a size: write a whole number of bytes, or a whole number with unit "
                        + "B, kB, KiB, MB, MiB, GB or GiB (k, M and G are powers of 1024, as in PostgreSQL)");
    }

    @Test
    void rejectsSizesBeyondALong() {
        assertThatThrownBy(() -> ByteSize.parse("9223372036854775807GiB"))
                .hasMessage("'9223372036854775807GiB' is too large a size");
        assertThatThrownBy(() -> ByteSize.parse("99999999999999999999"))
                .hasMessage("'99999999999999999999' is too large a size");
    }

    @Test
    void writesTheLargestExactUnitSoThatParsingGivesItBack() {
        assertThat(ByteSize.ofMiB(64)).hasToString("64MiB");
        assertThat(ByteSize.ofKiB(1536)).hasToString("1536KiB");
        assertThat(ByteSize.ofGiB(1)).hasToString("1GiB");
        assertThat(ByteSize.ofBytes(1000)).hasToString("1000B");
        assertThat(ByteSize.ofBytes(0)).hasToString("0B");
        for (ByteSize size : new ByteSize[] {ByteSize.ofMiB(64), ByteSize.ofKiB(1536), ByteSize.ofBytes(1000)}) {
            assertThat(ByteSize.parse(size.toString())).isEqualTo(size);
        }
    }

    @Test
    void cannotBeNegative() {
        assertThatThrownBy(() -> ByteSize.ofBytes(-1)).hasMessage("a size cannot be negative, was -1");
    }
}
