package io.memogate.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.OptionalLong;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;

import io.memogate.broker.probe.ProbeSettings;

class BrokerSettingsTest {

    private static final String URL = "jdbc:postgresql://db:5432/postgres?password=inurl";

    private static BrokerSettings.Builder defaults() {
        return BrokerSettings.builder(URL, "monitor", "secret");
    }

    @Test
    void defaultsAreTheDocumentedOnes() {
        BrokerSettings settings = defaults().build();

        assertThat(settings.interval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(settings.gracePeriod()).isEqualTo(Duration.ofSeconds(10));
        assertThat(settings.compileShare()).isEqualTo(0.5);
        assertThat(settings.hostMemoryBytes()).isEmpty();
        assertThat(settings.coLocated()).isFalse();
        assertThat(settings.staticTargetBytes()).isEqualTo(256L << 20);
        assertThat(settings.minimumTargetBytes()).isEqualTo(64L << 20);
        assertThat(settings.pressureShrink()).isEqualTo(0.75);
        assertThat(settings.recoveryStep()).isEqualTo(0.05);
        assertThat(settings.toBuilder().build()).isEqualTo(settings);
    }

    @Test
    void theProbeTimeoutIsAFewIntervalsAndAtLeastASecond() {
        assertThat(defaults().build().probeTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(defaults().interval(Duration.ofMillis(100)).build().probeTimeout()).isEqualTo(Duration.ofSeconds(1));
        assertThat(defaults().interval(Duration.ofSeconds(10)).build().probeTimeout()).isEqualTo(Duration.ofSeconds(30));

        ProbeSettings probe = defaults().coLocated(true).build().probeSettings();
        assertThat(probe).isEqualTo(new ProbeSettings(URL, "monitor", "secret", true, Duration.ofSeconds(3)));
    }

    @Test
    void printedSettingsShowNoPassword() {
        String printed = defaults().build().toString();

        assertThat(printed).doesNotContain("secret").doesNotContain("inurl")
                .contains("jdbc:postgresql://db:5432/postgres");
    }

    @Test
    void aUnixSocketReachedThroughASocketFactoryIsNamedWithoutTheOtherParameters() {
        String url = "jdbc:postgresql://localhost:5432/postgres?sslmode=disable&password=inurl"
                + "&socketFactory=org.newsclub.net.unix.AFUNIXSocketFactory%24FactoryArg"
                + "&socketFactoryArg=%2Fvar%2Frun%2Fpostgresql%2F.s.PGSQL.5432&ApplicationName=memogate-broker";

        assertThat(ProbeSettings.describeUrl(url)).isEqualTo(
                "jdbc:postgresql://localhost:5432/postgres over the socket /var/run/postgresql/.s.PGSQL.5432");
    }

    @Test
    void invalidSettingsAreRejectedNamingTheField() {
        rejects(b -> BrokerSettings.builder("postgresql://db", "monitor", null), "jdbcUrl must be a JDBC URL");
        rejects(b -> BrokerSettings.builder(URL, " ", null), "user must name the monitoring login role");
        rejects(b -> b.interval(Duration.ZERO), "interval must be positive, was PT0S");
        rejects(b -> b.gracePeriod(Duration.ofSeconds(-1)), "gracePeriod must be >= 0, was PT-1S");
        rejects(b -> b.compileShare(1.5), "compileShare must be in (0, 1], was 1.5");
        rejects(b -> b.compileShare(0), "compileShare must be in (0, 1], was 0.0");
        rejects(b -> b.compileShare(Double.NaN), "compileShare must be in (0, 1], was NaN");
        rejects(b -> b.hostMemoryBytes(0), "hostMemoryBytes must be > 0 when set, was 0");
        rejects(b -> b.minimumTargetBytes(0), "minimumTargetBytes must be > 0, was 0");
        rejects(b -> b.staticTargetBytes(1 << 20),
                "staticTargetBytes must be >= minimumTargetBytes (67108864), was 1048576");
        rejects(b -> b.pressureShrink(1), "pressureShrink must be in (0, 1), was 1.0");
        rejects(b -> b.recoveryStep(0), "recoveryStep must be in (0, 1], was 0.0");
        assertThatThrownBy(() -> defaults().hostMemoryBytes((OptionalLong) null).build())
                .isInstanceOf(NullPointerException.class).hasMessage("hostMemoryBytes");
    }

    private static void rejects(UnaryOperator<BrokerSettings.Builder> change, String message) {
        assertThatThrownBy(() -> change.apply(defaults()).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(message);
    }
}
