package io.memogate.proxy.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Configurations built in code: routing, and the same rules as for a file. */
class MemogateConfigTest {

    private final BackendConfig main = BackendConfig.of("main", "db1", 5432);
    private final BackendConfig reports = BackendConfig.of("reports", "db2", 5432)
            .withDatabases("reports", "analytics").withDefault(false);

    @Test
    void routesAListedDatabaseToTheBackendThatListsIt() {
        MemogateConfig config = MemogateConfig.of(main.withDatabases("demo"), reports);

        assertThat(config.backendFor("reports")).map(BackendConfig::name).contains("reports");
        assertThat(config.backendFor("analytics")).map(BackendConfig::name).contains("reports");
        assertThat(config.backendFor("demo")).map(BackendConfig::name).contains("main");
    }

    @Test
    void routesOtherDatabasesToTheDefaultBackend() {
        MemogateConfig config = MemogateConfig.of(reports, main);

        assertThat(config.defaultBackend()).contains(main);
        assertThat(config.backendFor("app")).contains(main);
        assertThat(config.backendFor("REPORTS")).as("names are exact, as PostgreSQL's").contains(main);
    }

    @Test
    void routesNothingElseWithoutADefault() {
        MemogateConfig config = MemogateConfig.of(reports);

        assertThat(config.defaultBackend()).isEmpty();
        assertThat(config.backendFor("app")).isEmpty();
        assertThat(config.backendFor("reports")).contains(reports);
    }

    @Test
    void buildsWithDefaults() {
        MemogateConfig config = MemogateConfig.of(main);

        assertThat(config.listeners()).containsExactly(ListenerConfig.of("127.0.0.1", 6432));
        assertThat(config.limits()).isEqualTo(LimitsConfig.DEFAULTS);
        assertThat(config.admin().http()).isEqualTo(AdminHttpConfig.of("127.0.0.1", 9930));
        assertThat(config.withAdmin(new AdminConfig(AdminHttpConfig.of("127.0.0.1", 0))).admin().http().port()).isZero();
        assertThat(main.isDefault()).isTrue();
        assertThat(main.tls()).isEqualTo(BackendTlsConfig.of(TlsMode.PREFER));
        assertThat(config.withListeners(ListenerConfig.of("0.0.0.0", 0)).listeners())
                .containsExactly(ListenerConfig.of("0.0.0.0", 0));
        assertThat(config.withLimits(LimitsConfig.DEFAULTS.withShutdownTimeout(Duration.ZERO)).limits().shutdownTimeout())
                .isZero();
    }

    @Test
    void appliesTheFileRulesToConfigurationsBuiltInCode() {
        assertThatThrownBy(() -> MemogateConfig.of(main, BackendConfig.of("other", "db2", 70000)))
                .isInstanceOf(ConfigException.class)
                .hasMessage("""
                        invalid configuration (2 problems):
                          backends[1].port must be in 1..65535, was 70000
                          backends: at most one backend may be default, found 2 (main, other); \
                        a backend that lists no databases is the default unless it says default: false""");
        assertThatThrownBy(() -> MemogateConfig.of(main.withTls(BackendTlsConfig.verifyFull(Path.of("/no/ca.pem")))))
                .hasMessageEndingWith("backends[0].tls.trustedCertificates: file not found: /no/ca.pem");
        assertThatThrownBy(() -> MemogateConfig.of(main).withLimits(LimitsConfig.DEFAULTS.withMaxMessageBytes(512)))
                .hasMessageEndingWith("limits.maxMessageBytes must be between 1KiB and 1GiB, was 512B");
        assertThatThrownBy(() -> MemogateConfig.of(main).withLimits(
                LimitsConfig.DEFAULTS.withShutdownTimeout(Duration.ofSeconds(-1))))
                .hasMessageEndingWith("limits.shutdownTimeout must not be negative, was -1s");
        assertThatThrownBy(() -> MemogateConfig.of())
                .hasMessageEndingWith("backends must name at least one backend");
        assertThatThrownBy(() -> MemogateConfig.of(main).withAdmin(new AdminConfig(AdminHttpConfig.of("127.0.0.1", 65536))))
                .hasMessageEndingWith("admin.http.port must be in 0..65535, was 65536");
    }

    @Test
    void isImmutable() {
        List<BackendConfig> backends = new ArrayList<>(List.of(main));
        MemogateConfig config = new MemogateConfig(List.of(ListenerConfig.defaults()), backends, LimitsConfig.DEFAULTS);
        backends.add(reports);

        assertThat(config.backends()).containsExactly(main);
        assertThatThrownBy(() -> config.backends().add(reports)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> new MemogateConfig(List.of(), List.of(main), null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void writesListenerAddressesAsClientsDo() {
        assertThat(ListenerConfig.of("127.0.0.1", 6432).address()).isEqualTo("127.0.0.1:6432");
        assertThat(ListenerConfig.of("::1", 6432).address()).isEqualTo("[::1]:6432");
    }

    @Test
    void readsTlsModesAsLibpqWritesThem() {
        assertThat(TlsMode.fromConfigName("verify-full")).contains(TlsMode.VERIFY_FULL);
        assertThat(TlsMode.fromConfigName("disable")).contains(TlsMode.DISABLE);
        assertThat(TlsMode.fromConfigName("VERIFY_FULL")).isEmpty();
        assertThat(TlsMode.REQUIRE).hasToString("require");
    }
}
