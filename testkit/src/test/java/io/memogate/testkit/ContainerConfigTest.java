package io.memogate.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.broker.gateway.Tier;
import io.memogate.proxy.config.BackendConfig;
import io.memogate.proxy.config.ConfigLoader;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.config.MonitorConfig;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The file MemogateContainer gives the image is one the proxy accepts, and it says what the settings say: the
 * database on the network as the backend, watched with the database container's role, the tiers and target
 * as set from Java, the statements recorded for {@link MemogateContainer#statements()}, which reads them on the
 * console as that role.
 */
class ContainerConfigTest {

    private static MemogateConfig load(MemogateSettings settings) {
        return new ConfigLoader().parse(ContainerConfig.yaml(settings, "tc-db", 5432, "test", "it's \"secret\""),
                Path.of("/etc/memogate"));
    }

    @Test
    void theFileFrontsTheDatabaseOnTheNetworkWithTheSettingsFromJava() {
        MemogateSettings settings = MemogateSettings.defaults().withTarget(32L << 20).withStaticThreshold(512 << 10)
                .withTierLimits(3, 2, 1).withFractions(0.1, 0.3).withQueue(Tier.LARGE, 5, Duration.ofSeconds(7));

        MemogateConfig config = load(settings);

        assertThat(config.backends()).singleElement().satisfies(backend -> {
            assertThat(backend.host()).isEqualTo("tc-db");
            assertThat(backend.port()).isEqualTo(5432);
        });
        assertThat(config.listeners()).singleElement().satisfies(listener -> {
            assertThat(listener.host()).isEqualTo("0.0.0.0");
            assertThat(listener.port()).isEqualTo(MemogateContainer.PORT);
        });
        assertThat(config.admin().http().port()).isEqualTo(MemogateContainer.ADMIN_HTTP_PORT);
        assertThat(config.admission().gatewaySettings()).isEqualTo(settings.gateways());
        assertThat(config.broker().staticTargetBytes()).isEqualTo(32L << 20);
        assertThat(config.broker().minimumTargetBytes()).isEqualTo(32L << 20);
        assertThat(config.broker().monitor()).map(MonitorConfig::user).contains("test");
        assertThat(config.broker().monitor().flatMap(MonitorConfig::password)).contains("it's \"secret\"");
        assertThat(config.admin().isConsoleUser("test")).isTrue();
        assertThat(config.backends()).extracting(BackendConfig::name).containsExactly("target");
        assertThat(config.admission().statementRecords()).isEqualTo(MemogateSettings.DEFAULT_STATEMENT_RECORDS);
    }

    @Test
    void theStatementsRecordedAreAsManyAsTheSettingsSay() {
        assertThat(load(MemogateSettings.defaults().withStatementRecords(50)).admission().statementRecords())
                .isEqualTo(50);
    }

    @Test
    void aMonitorSetFromJavaReplacesTheDatabaseContainersRoleAndConsoleUsersJoinIt() {
        MemogateConfig config = load(MemogateSettings.defaults().withMonitor("watcher", "w").withConsoleUsers("dba"));

        assertThat(config.broker().monitor()).map(MonitorConfig::user).contains("watcher");
        assertThat(config.admin().users()).containsExactly("dba", "test");
    }
}
