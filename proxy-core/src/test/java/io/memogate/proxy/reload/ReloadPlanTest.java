package io.memogate.proxy.reload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.broker.gateway.Tier;
import io.memogate.estimator.postgres.MemoryCoefficients;
import io.memogate.proxy.config.AdminConfig;
import io.memogate.proxy.config.AdminHttpConfig;
import io.memogate.proxy.config.BackendConfig;
import io.memogate.proxy.config.BackendTlsConfig;
import io.memogate.proxy.config.BrokerConfig;
import io.memogate.proxy.config.ConfigException;
import io.memogate.proxy.config.ConfigSettings.Applies;
import io.memogate.proxy.config.EstimatorConfig;
import io.memogate.proxy.config.ListenerConfig;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.config.MonitorConfig;
import io.memogate.proxy.config.NetworkConfig;
import io.memogate.proxy.config.NetworkTransport;
import io.memogate.proxy.config.ServerTlsConfig;
import io.memogate.proxy.config.TierField;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a reload takes from a new file, what it keeps until a restart, and how it reports each change. */
class ReloadPlanTest {

    private static final BackendConfig MAIN = new BackendConfig("main", "db1", 5432, List.of(), true,
            BackendTlsConfig.DEFAULT);
    private final MemogateConfig running = MemogateConfig.of(MAIN);

    @Test
    void anUnchangedFileChangesNothing() {
        ReloadPlan plan = ReloadPlan.between(running, running);
        assertThat(plan.changes()).isEmpty();
        assertThat(plan.next()).isEqualTo(running);
    }

    /** A new calibration written over the same file is a change: the setting's value shows the coefficients. */
    @Test
    void newCoefficientsAreTakenLiveEvenFromTheSameFile() {
        Path file = Path.of("/etc/memogate/coefficients.yaml");
        MemogateConfig before = running.withEstimator(
                new EstimatorConfig(Optional.of(file), new MemoryCoefficients(50_000, 2_000, 20_000, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)));
        MemogateConfig after = running.withEstimator(
                new EstimatorConfig(Optional.of(file), new MemoryCoefficients(40_000, 3_000, 20_000, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)));

        ReloadPlan plan = ReloadPlan.between(before, after);

        assertThat(plan.next().estimator()).isEqualTo(after.estimator());
        assertThat(plan.changes()).extracting(ConfigChange::toString).containsExactly("estimator.coefficients: "
                + file + " (50000, 2000, 20000, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0) -> " + file
                + " (40000, 3000, 20000, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0) (live)");
    }

    @Test
    void liveAndNewSessionSettingsAreTakenFromTheFile() {
        MemogateConfig file = new TierField(Tier.SMALL, "limit").apply(running, "3")
                .withAdmin(running.admin().withUsers("dba").withAuthDatabase("ops"))
                .withBackends(new BackendConfig("main", "db2", 5433, List.of(), true, BackendTlsConfig.DEFAULT))
                .withLimits(running.limits().withMaxClientConnections(10))
                .withAdmission(new TierField(Tier.SMALL, "limit").apply(running, "3").admission()
                        .withWaitNotice(Duration.ofMillis(300)).withHoldWhileRunning(Duration.ZERO)
                        .withStatementRecords(100));

        ReloadPlan plan = ReloadPlan.between(running, file);

        assertThat(plan.next()).isEqualTo(file);
        assertThat(plan.changes()).extracting(ConfigChange::toString).containsExactly(
                "backends[0].host: db1 -> db2 (new sessions)",
                "backends[0].port: 5432 -> 5433 (new sessions)",
                "limits.maxClientConnections: 1000 -> 10 (live)",
                "admin.users: (unset) -> dba (live)",
                "admin.authDatabase: postgres -> ops (live)",
                "admission.waitNotice: 1s -> 300ms (live)",
                "admission.holdWhileRunning: 10s -> 0s (live)",
                "admission.statementRecords: 0 -> 100 (live)",
                "admission.tiers.small.limit: " + running.admission().gatewaySettings().small().limit() + " -> 3 (live)");
        assertThat(plan.changes()).allMatch(ConfigChange::applied);
    }

    @Test
    void whatOnlyARestartChangesIsReportedAndKept() {
        MemogateConfig file = running.withListeners(ListenerConfig.of("0.0.0.0", 7432))
                .withAdmin(running.admin().withWatchInterval(Duration.ofSeconds(5)))
                .withAdmin(new AdminConfig(AdminHttpConfig.of("127.0.0.1", 9931)))
                .withAdmission(running.admission().withEnabled(false))
                .withBroker(BrokerConfig.DEFAULTS.withHostMemory(8L << 30))
                .withNetwork(NetworkConfig.DEFAULTS.withTransport(NetworkTransport.IO_URING));

        ReloadPlan plan = ReloadPlan.between(running, file);

        assertThat(plan.next()).isEqualTo(running);
        assertThat(plan.changes()).extracting(ConfigChange::key).containsExactly("listeners[0].host",
                "listeners[0].port", "admin.http.port", "admission.enabled", "broker.hostMemory", "network.transport");
        assertThat(plan.changes()).allSatisfy(change -> {
            assertThat(change.applied()).isFalse();
            assertThat(change.applies()).isEqualTo(Applies.RESTART);
            assertThat(change.effect()).isEqualTo("requires restart (not applied)");
        });
    }

    @Test
    void listenerTlsChangesForNewSessionsOnlyWhileTheSocketsStay(@TempDir Path dir) throws IOException {
        ServerTlsConfig tls = new ServerTlsConfig(Files.writeString(dir.resolve("server.crt"), "x"),
                Files.writeString(dir.resolve("server.key"), "x"));
        MemogateConfig withTls = running.withListeners(ListenerConfig.defaults().withTls(tls));

        ReloadPlan sameSocket = ReloadPlan.between(running, withTls);

        assertThat(sameSocket.next().listeners()).isEqualTo(withTls.listeners());
        assertThat(sameSocket.changes()).extracting(ConfigChange::effect).containsExactly("new sessions", "new sessions");

        MemogateConfig movedWithTls = running.withListeners(ListenerConfig.of("127.0.0.1", 7000).withTls(tls));
        ReloadPlan moved = ReloadPlan.between(running, movedWithTls);

        assertThat(moved.next().listeners()).as("the running listeners, TLS included").isEqualTo(running.listeners());
        assertThat(moved.changes()).extracting(ConfigChange::key).containsExactly("listeners[0].port",
                "listeners[0].tls.certificate", "listeners[0].tls.privateKey");
        assertThat(moved.changes()).noneMatch(ConfigChange::applied);
    }

    @Test
    void aRemovedBackendIsListedAsGone() {
        MemogateConfig two = running.withBackends(MAIN, new BackendConfig("reports", "db9", 5432, List.of("reports"),
                false, BackendTlsConfig.DEFAULT));

        ReloadPlan plan = ReloadPlan.between(two, running);

        assertThat(plan.changes()).extracting(ConfigChange::toString).contains(
                "backends[1].name: reports -> (unset) (new sessions)",
                "backends[1].databases: reports -> (unset) (new sessions)");
        assertThat(plan.next().backends()).containsExactly(MAIN);
    }

    /**
     * The broker keeps monitoring the backend it started with: a file that renames it, and points
     * broker.monitor.backend at the new name, is refused in those words, not with its running value quoted
     * as if the file had written it.
     */
    @Test
    void aRenamedMonitoredBackendIsRefusedSayingTheBrokerChangesAtRestart() {
        BrokerConfig monitorsMain = BrokerConfig.DEFAULTS.withMonitor(MonitorConfig.of("monitor").withBackend("main"));
        MemogateConfig before = running.withBroker(monitorsMain);
        BackendConfig primary = new BackendConfig("primary", "db1", 5432, List.of(), true, BackendTlsConfig.DEFAULT);
        MemogateConfig renamed = with(before, List.of(primary),
                BrokerConfig.DEFAULTS.withMonitor(MonitorConfig.of("monitor").withBackend("primary")));

        assertThatThrownBy(() -> ReloadPlan.between(before, renamed)).isInstanceOfSatisfying(ConfigException.class,
                refused -> assertThat(refused.problems()).containsExactly("broker.monitor.backend: the running broker "
                        + "still monitors backend 'main', which the new file no longer has (it names 'primary', which "
                        + "the broker monitors after the restart); broker.monitor.backend changes take effect at "
                        + "restart, so keep that backend in the file until the proxy restarts"));
        assertThat(ReloadPlan.between(before, renamed.withBackends(MAIN.withDefault(false).withDatabases("other"),
                primary)).changes()).as("keeping 'main' until the restart is fine")
                .anySatisfy(change -> assertThat(change.key()).isEqualTo("broker.monitor.backend"));
    }

    @Test
    void aBackendWatchedWithoutBeingNamedMayStopBeingTheDefault() {
        MemogateConfig before = running.withBroker(BrokerConfig.DEFAULTS.withMonitor(MonitorConfig.of("monitor")));
        MemogateConfig noDefault = with(before, List.of(MAIN.withDefault(false).withDatabases("shop")),
                BrokerConfig.DEFAULTS.withMonitor(MonitorConfig.of("monitor")));

        // Every backend's server has its broker: which backend is the default does not choose it.
        assertThat(ReloadPlan.between(before, noDefault).next().brokerSettings("main")).isPresent();
    }

    /** {@code config} with other backends and broker at once: each on its own would not validate. */
    private static MemogateConfig with(MemogateConfig config, List<BackendConfig> backends, BrokerConfig broker) {
        return new MemogateConfig(config.listeners(), backends, config.limits(), config.admin(), config.admission(),
                broker);
    }
}
