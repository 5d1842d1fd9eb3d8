package io.memogate.proxy.tds.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.broker.Broker;
import io.memogate.broker.BrokerSettings;
import io.memogate.broker.probe.MemoryProbe;
import io.memogate.broker.probe.ProbeException;
import io.memogate.proxy.cli.RunningProxy;
import io.memogate.proxy.config.AdminConfig;
import io.memogate.proxy.config.AdminHttpConfig;
import io.memogate.proxy.config.BackendConfig;
import io.memogate.proxy.config.BackendTlsConfig;
import io.memogate.proxy.config.BrokerConfig;
import io.memogate.proxy.config.ListenerConfig;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.config.MonitorConfig;
import io.memogate.proxy.config.Protocol;
import io.memogate.proxy.config.TlsMode;
import io.memogate.proxy.metrics.PrometheusText;
import io.memogate.proxy.tds.TdsServer;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * A tds listener's backend with {@code broker.monitor}: the broker's probe is SQL Server's, reaching the backend
 * through mssql-jdbc with the URL the configuration makes. The test TDS server logs the probe in and answers
 * every batch with a row that is not what the views return: the poll fails saying so, after asking the login's
 * rights first. (Against a real SQL Server the probe's own SqlServerProbeIT, in broker-sqlserver, reads it.)
 */
class TdsBrokerProbeIT {

    /**
     * The running proxy polls a tds backend with that probe (the failure is the probe's own words) and exports the
     * server's gateway meters for it, empty (NaN) until a poll succeeds.
     */
    @Test
    void aRunningProxyPollsItsTdsBackendWithTheSqlServerProbeAndExportsTheServersGatewayMeters() throws Exception {
        try (TdsTestServer server = TdsTestServer.start();
             RunningProxy proxy = RunningProxy.start(monitored(server)
                     .withAdmin(new AdminConfig(AdminHttpConfig.of("127.0.0.1", 0))))) {
            Broker broker = proxy.admission().orElseThrow().all().getFirst().broker().orElseThrow();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (broker.state().totalFailures() == 0 && System.nanoTime() < deadline) {
                LockSupport.parkNanos(Duration.ofMillis(10).toNanos()); // the broker's first poll, on its thread
            }

            assertThat(broker.state().lastFailure()).hasValueSatisfying(failure ->
                    assertThat(failure).contains("SQL Server probe").contains("sys.fn_my_permissions has no column login"));
            URI metrics = proxy.metrics().metricsUrl().orElseThrow();
            PrometheusText scrape = PrometheusText.scrape(metrics);
            assertThat(scrape.value("memogate_server_gateway_limit{gateway=\"small\",server=\"sql\"}"))
                    .hasValueSatisfying(value -> assertThat(value).isNaN());
            assertThat(scrape.value("memogate_broker_probe_failures_total{server=\"sql\"}"))
                    .hasValueSatisfying(value -> assertThat(value).isPositive());
        }
    }

    private static MemogateConfig monitored(TdsTestServer server) {
        return MemogateConfig.of(new BackendConfig("sql", "127.0.0.1", server.port(), List.of(), true,
                        BackendTlsConfig.of(TlsMode.DISABLE)))
                .withListeners(ListenerConfig.of("127.0.0.1", 0).withProtocol(Protocol.TDS))
                .withBroker(BrokerConfig.DEFAULTS.withMonitor(MonitorConfig.of("memogate_monitor")
                        .withPassword("monitor-secret")));
    }

    @Test
    void theProbeLogsInWithTheConfiguredLoginAsksItsRightsFirstAndRejectsAnswersNotShapedAsTheViews()
            throws Exception {
        try (TdsTestServer server = TdsTestServer.start()) {
            BrokerSettings settings = monitored(server).brokerSettings("sql").orElseThrow();

            try (MemoryProbe probe = TdsServer.KIND.probe().open(settings.probeSettings(), System::nanoTime)) {
                assertThatThrownBy(probe::probe).isInstanceOf(ProbeException.class)
                        .hasMessageContaining("SQL Server probe of jdbc:sqlserver://;serverName={127.0.0.1}")
                        .hasMessageContaining("sys.fn_my_permissions has no column login");
            }

            assertThat(server.logins).singleElement().asString().startsWith("memogate_monitor@");
            assertThat(server.batches).singleElement().asString()
                    .startsWith("SELECT SUSER_SNAME() AS login")
                    .contains("sys.fn_my_permissions(NULL, 'SERVER')");
        }
    }
}
