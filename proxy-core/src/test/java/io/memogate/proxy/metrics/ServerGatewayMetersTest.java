package io.memogate.proxy.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.broker.Broker;
import io.memogate.broker.BrokerSettings;
import io.memogate.broker.probe.MemorySnapshot;
import io.memogate.broker.probe.ServerGateway;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** SQL Server's own gateways as a scrape shows them, from a real broker's last good poll. */
class ServerGatewayMetersTest {

    @Test
    void aScrapeShowsTheServersGatewaysSummedOverPoolsAndNothingBeforeThePoll() {
        // Two resource pools: the default (2) and one the DBA made (256).
        MemorySnapshot polled = SqlServerSnapshots.withGateways(List.of(
                new ServerGateway("Small Gateway", 2, 32, 32, 12, OptionalLong.of(380000)),
                new ServerGateway("Medium Gateway", 2, 8, 8, 5, OptionalLong.of(121634816)),
                new ServerGateway("Big Gateway", 2, 1, 1, 3, OptionalLong.of(1459617792)),
                new ServerGateway("Small Gateway", 256, 32, 4, 0, OptionalLong.of(380000))));
        try (Broker broker = new Broker(BrokerSettings.builder("jdbc:sqlserver://;serverName={db}", "m", "p").build(),
                () -> polled, System::nanoTime, state -> { })) {
            PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            new ServerGatewayMeters("sql", broker).bindTo(registry);

            PrometheusText before = new PrometheusText(registry.scrape());
            broker.pollOnce();
            PrometheusText after = new PrometheusText(registry.scrape());

            assertThat(before.value("memogate_server_gateway_waiting{gateway=\"small\",server=\"sql\"}"))
                    .hasValueSatisfying(value -> assertThat(value).isNaN());
            assertThat(after.value("memogate_server_gateway_active{gateway=\"small\",server=\"sql\"}")).contains(36.0);
            assertThat(after.value("memogate_server_gateway_limit{gateway=\"small\",server=\"sql\"}")).contains(64.0);
            assertThat(after.value("memogate_server_gateway_waiting{gateway=\"medium\",server=\"sql\"}")).contains(5.0);
            assertThat(after.value("memogate_server_gateway_waiting{gateway=\"big\",server=\"sql\"}")).contains(3.0);
            registry.close();
        }
    }
}
