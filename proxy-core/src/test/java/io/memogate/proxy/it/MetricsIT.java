package io.memogate.proxy.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.proxy.config.AdminHttpConfig;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import io.memogate.proxy.postgres.embedded.TestUsers;
import io.memogate.proxy.metrics.EventLoopMeters;
import io.memogate.proxy.metrics.MetricsEndpoint;
import io.memogate.proxy.metrics.PrometheusText;
import io.memogate.proxy.metrics.ProxyMeters;
import io.memogate.proxy.testing.Await;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The proxy's connection meters as an operator reads them, on {@code /metrics} and over JMX, while pgjdbc
 * clients come and go through the real proxy in front of the embedded PostgreSQL 18.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class MetricsIT {

    @Test
    void connectionsOnMetricsAndJmx(EmbeddedPostgres pg) throws Exception {
        try (MetricsEndpoint metrics = MetricsEndpoint.start(AdminHttpConfig.of("127.0.0.1", 0));
                ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).start()) {
            metrics.bind(new ProxyMeters(proxy.server()));
            metrics.bind(new EventLoopMeters(proxy.server().eventLoopGroup()));
            metrics.markServing();
            URI url = metrics.metricsUrl().orElseThrow();
            assertThat(PrometheusText.scrape(url).value("memogate_client_connections")).contains(0.0);
            assertThat(probedLoops(url, proxy.server().eventLoops())).as("each session loop probed, named as in thread dumps")
                    .hasSize(proxy.server().eventLoops()).allMatch(name -> name.startsWith("memogate-loop-"));

            try (Connection first = connect(proxy); Connection second = connect(proxy)) {
                assertThat(selectOne(first) + selectOne(second)).isEqualTo(2);

                assertThat(PrometheusText.awaitSample(url, "memogate_client_connections", v -> v == 2)
                        .value("memogate_client_connections")).contains(2.0);
                assertThat(PrometheusText.awaitSample(url, "memogate_server_connections", v -> v == 2)
                        .value("memogate_server_connections")).contains(2.0);
                assertThat(jmxGauge("ClientConnections")).isEqualTo(2.0);
            }

            assertThat(PrometheusText.awaitSample(url, "memogate_client_connections", v -> v == 0)
                    .value("memogate_client_connections")).contains(0.0);
            assertThat(PrometheusText.awaitSample(url, "memogate_server_connections", v -> v == 0)
                    .value("memogate_server_connections")).contains(0.0);
        }
        assertThat(jmxNames()).as("MBeans unregistered when the endpoint closes")
                .noneMatch(name -> name.toString().contains("ClientConnections"));
    }

    /** The loops whose lag was recorded at least once, by name, once {@code expected} are or after 10 s. */
    private static Set<String> probedLoops(URI url, int expected) throws Exception {
        Pattern probed = Pattern.compile("memogate_eventloop_lag_seconds_count\\{name=\"([^\"]+)\"} ([0-9.]+)");
        Set<String> loops = new TreeSet<>();
        Await.holdsWithin(Duration.ofSeconds(10), () -> {
            loops.clear();
            PrometheusText.scrape(url).text().lines().map(probed::matcher).filter(Matcher::matches)
                    .filter(m -> Double.parseDouble(m.group(2)) > 0).forEach(m -> loops.add(m.group(1)));
            return loops.size() >= expected;
        });
        return loops;
    }

    private static Connection connect(ProxyFixture proxy) throws Exception {
        return proxy.connect("demo", TestUsers.SCRAM_USER, TestUsers.SCRAM_PASSWORD);
    }

    private static int selectOne(Connection connection) throws Exception {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery("select 1")) {
            rows.next();
            return rows.getInt(1);
        }
    }

    /** The value of the gauge whose MBean name contains {@code fragment}, in domain "memogate". */
    private static double jmxGauge(String fragment) throws Exception {
        Set<ObjectName> names = jmxNames();
        ObjectName gauge = names.stream().filter(name -> name.toString().contains(fragment)).findFirst()
                .orElseThrow(() -> new AssertionError("no MBean with " + fragment + " in " + names));
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        return ((Number) server.getAttribute(gauge, "Value")).doubleValue();
    }

    private static Set<ObjectName> jmxNames() throws Exception {
        return ManagementFactory.getPlatformMBeanServer().queryNames(new ObjectName("memogate:*"), null);
    }
}
