package io.memogate.proxy.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

    @ParameterizedTest(name = "{0} = {1} ms")
    @CsvSource({
            "500ms, 500",
            "5s, 5000",
            "2min, 120000",
            "1h, 3600000",
            "1d, 86400000",
            "5000, 5000",    // a plain number is milliseconds, as for PostgreSQL's statement_timeout
            "0, 0",
            "'30 s', 30000", // PostgreSQL accepts blanks between number and unit
    })
    void parsesNumbersAndUnitsAsPostgresqlDoes(String text, long millis) {
        assertThat(Durations.parse(text)).isEqualTo(Duration.ofMillis(millis));
    }

    @ParameterizedTest
    @ValueSource(strings = {"5sec", "", "s", "-5s", "1.5s", "5S", "5m", "PT5S", "5 s s", "2mins"})
    void rejectsAnythingElseNamingTheAcceptedUnits(String text) {
        assertThatThrownBy(() -> Durations.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("'" + text + "' is not a duration: write a whole number with unit ms, s, min, h or d "
                        + "(e.g. 500ms, 5s, 2min), or a plain number of milliseconds");
    }

    @Test
    void rejectsDurationsBeyondWhatJavaHolds() {
        assertThatThrownBy(() -> Durations.parse("9223372036854775807d"))
                .hasMessage("'9223372036854775807d' is too long a duration");
    }

    @Test
    void writesTheLargestExactUnitSoThatParsingGivesItBack() {
        assertThat(Durations.format(Duration.ofSeconds(30))).isEqualTo("30s");
        assertThat(Durations.format(Duration.ofSeconds(90))).isEqualTo("90s");
        assertThat(Durations.format(Duration.ofMinutes(2))).isEqualTo("2min");
        assertThat(Durations.format(Duration.ofHours(1))).isEqualTo("1h");
        assertThat(Durations.format(Duration.ofDays(3))).isEqualTo("3d");
        assertThat(Durations.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
        assertThat(Durations.format(Duration.ZERO)).isEqualTo("0s");
        for (long ms : new long[] {1, 999, 1500, 60_000, 90_000, 3_600_000, 86_400_000}) {
            Duration d = Duration.ofMillis(ms);
            assertThat(Durations.parse(Durations.format(d))).isEqualTo(d);
        }
    }

    @Test
    void writesWhatAFileCannotSayWithoutThrowing() {
        assertThat(Durations.format(Duration.ofNanos(500_000))).isEqualTo("0.5ms");
        assertThat(Durations.format(Duration.ofMillis(-1500))).isEqualTo("-1500ms");
        assertThat(Durations.format(Duration.ofSeconds(-5))).isEqualTo("-5s");
        assertThat(Durations.format(Duration.ofSeconds(Long.MAX_VALUE))).isEqualTo(Long.MAX_VALUE + "s");
    }
}
