package io.memogate.proxy.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.broker.BrokerMode;
import io.memogate.broker.BrokerState;
import io.memogate.broker.gateway.CompileMemoryRetention;
import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.probe.HostMemory;
import io.memogate.broker.probe.MemorySnapshot;
import io.memogate.broker.probe.PressureCounters;
import io.memogate.broker.probe.ProbeFactory;
import io.memogate.broker.probe.ServerConnections;
import io.memogate.broker.probe.ServerMemory;
import io.memogate.broker.probe.ServerVersion;
import io.memogate.estimator.dialect.DialectSettings;
import io.memogate.proxy.mysql.MySqlServer;
import io.memogate.proxy.postgres.PostgresServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AdmissionControlTest {

    private static final long MIB = 1 << 20;

    private static BrokerState measured(long takenAt, Map<Integer, Long> privateBytes) {
        MemorySnapshot snapshot = new MemorySnapshot(takenAt, new ServerVersion("18.0", 180000),
                new ServerMemory(128 * MIB, 0, OptionalLong.of(4 * MIB), OptionalLong.empty(), privateBytes),
                new ServerConnections(100, 0, List.copyOf(privateBytes.keySet())),
                new PressureCounters(0, 0, 0, Optional.empty(), OptionalLong.empty()), Map.of(),
                new HostMemory(OptionalLong.empty(), OptionalLong.empty()));
        return new BrokerState(BrokerMode.LIVE, 1024 * MIB, Optional.of(snapshot), Optional.of(Duration.ZERO),
                Optional.empty(), 0, 0, Optional.empty(), Set.of(), Map.of("join_collapse_limit", "12"), privateBytes);
    }

    @Test
    void measuredMemoryFillsTheLedgerButAProcessWhoseSessionClosedStaysOut() {
        try (AdmissionControl control = AdmissionControl.builder(AdmissionControl.ONLY_SERVER, PostgresServer.KIND,
                GatewaySettings.defaults(2)).staticTargetBytes(256 * MIB).build()) {
            long pollStarted = System.nanoTime();
            control.hook().serverConnectionClosed(41); // its session ended while the poll was reading /proc
            control.published(measured(pollStarted, Map.of(41, 500 * MIB, 42, 30 * MIB)));

            assertThat(control.gateways().target()).isEqualTo(1024 * MIB);
            assertThat(control.gateways().ledger().totalBytes()).as("only the live process").isEqualTo(30 * MIB);
            assertThat(PostgresServer.plannerSettings(control.support().serverDefaults().get()).joinCollapseLimit())
                    .isEqualTo(12);

            control.published(measured(System.nanoTime(), Map.of()));
            assertThat(control.gateways().ledger().totalBytes()).as("nothing measured: nothing changes")
                    .isEqualTo(30 * MIB);
            control.published(measured(System.nanoTime(), Map.of(43, 10 * MIB)));
            assertThat(control.gateways().ledger().totalBytes()).as("42 exited, 43 appeared").isEqualTo(10 * MIB);
        }
    }

    /** A kind whose compiles give their memory back, as a server with a per-statement arena does. */
    private static final ServerKind RELEASING = new ServerKind() {
        @Override
        public String name() {
            return "a releasing server";
        }

        @Override
        public CompileMemoryRetention retention() {
            return CompileMemoryRetention.RELEASED_AFTER_COMPILE;
        }

        @Override
        public EstimatorInForce estimator() {
            return PostgresServer.KIND.estimator();
        }

        @Override
        public ProbeFactory probe() {
            return PostgresServer.KIND.probe();
        }

        @Override
        public DialectSettings builtInDefaults() {
            return PostgresServer.KIND.builtInDefaults();
        }

        @Override
        public DialectSettings defaults(Map<String, String> serverSettings) {
            return PostgresServer.KIND.defaults(serverSettings);
        }
    };

    @Test
    void whatAConnectionKeepsAfterACompileIsTheServerKindsRule() {
        try (AdmissionControl postgres = AdmissionControl.builder("pg", PostgresServer.KIND,
                        GatewaySettings.defaults(2)).staticTargetBytes(1024 * MIB).build();
             AdmissionControl releasing = AdmissionControl.builder("other", RELEASING,
                        GatewaySettings.defaults(2)).staticTargetBytes(1024 * MIB).build()) {
            postgres.gateways().acquire(300 * MIB, 7).release();
            releasing.gateways().acquire(300 * MIB, 7).release();

            assertThat(postgres.gateways().retainedBy(7)).as("a PostgreSQL backend keeps its plan's memory")
                    .isEqualTo(300 * MIB);
            assertThat(releasing.gateways().retainedBy(7)).isZero();
        }
    }

    /**
     * MariaDB reports a connection's memory in use, not what malloc keeps for its thread after a statement: the
     * measurement raises what the ledger counts for it and never lowers it, where PostgreSQL's replaces it.
     */
    @Test
    void aMySqlConnectionsMeasuredMemoryNeverLowersWhatItsCompilesLeft() {
        try (AdmissionControl mysql = AdmissionControl.builder("maria", MySqlServer.KIND,
                        GatewaySettings.defaults(2)).staticTargetBytes(1024 * MIB).build();
             AdmissionControl postgres = AdmissionControl.builder("pg", PostgresServer.KIND,
                        GatewaySettings.defaults(2)).staticTargetBytes(1024 * MIB).build()) {
            for (AdmissionControl control : List.of(mysql, postgres)) {
                control.gateways().acquire(124 * MIB, 7).release();
                control.published(measured(System.nanoTime(), Map.of(7, 5 * MIB)));
            }
            assertThat(mysql.gateways().retainedBy(7)).as("the IN list's memory, kept by the thread's arena")
                    .isEqualTo(124 * MIB);
            assertThat(postgres.gateways().retainedBy(7)).as("RssAnon, which counts what malloc keeps")
                    .isEqualTo(5 * MIB);

            mysql.published(measured(System.nanoTime(), Map.of(7, 200 * MIB)));
            assertThat(mysql.gateways().retainedBy(7)).isEqualTo(200 * MIB);
        }
    }
}
