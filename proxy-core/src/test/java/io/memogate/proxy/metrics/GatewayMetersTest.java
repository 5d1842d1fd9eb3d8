package io.memogate.proxy.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.GatewayTimer;
import io.memogate.broker.gateway.Gateways;
import io.memogate.broker.gateway.LocalGateways;
import io.memogate.broker.gateway.Ticket;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The gateways' and the broker's meters bound to real gateways, read as Prometheus would scrape them. */
class GatewayMetersTest {

    private static final long MIB = 1 << 20;
    private static final GatewayTimer NO_TIMEOUTS = (task, delay) -> () -> { };

    @Test
    void aScrapeShowsEachTiersStateAndTheTarget() {
        long[] now = {0};
        GatewayMeters meters = new GatewayMeters();
        Gateways gateways = new LocalGateways(GatewaySettings.defaults(2), 1024 * MIB, () -> now[0], NO_TIMEOUTS,
                meters);
        meters.gateways(gateways);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        meters.bindTo(registry);
        new BrokerMeters(gateways, Optional.empty()).bindTo(registry);

        Ticket small = gateways.acquire(10 * MIB, 1);
        Ticket large = gateways.acquire(900 * MIB, 2);
        PrometheusText scrape = new PrometheusText(registry.scrape());

        assertThat(scrape.value("memogate_gateway_limit{server=\"default\",tier=\"small\"}")).contains(8.0);
        assertThat(scrape.value("memogate_gateway_limit{server=\"default\",tier=\"large\"}")).contains(1.0);
        assertThat(scrape.value("memogate_gateway_active{server=\"default\",tier=\"small\"}")).contains(2.0);
        assertThat(scrape.value("memogate_gateway_active{server=\"default\",tier=\"large\"}")).contains(1.0);
        assertThat(scrape.value("memogate_gateway_threshold_bytes{server=\"default\",tier=\"small\"}")).contains((double) MIB);
        assertThat(scrape.value("memogate_broker_target_bytes{server=\"default\"}")).contains(1024.0 * MIB);
        assertThat(scrape.value("memogate_budget_used_bytes{server=\"default\"}")).contains(910.0 * MIB);
        assertThat(scrape.value("memogate_gateway_admitted_total{server=\"default\",tier=\"large\"}")).contains(1.0);

        now[0] += 2_000_000_000L;
        large.release();
        small.release();
        Ticket waited = gateways.acquire(900 * MIB, 3);
        waited.release();
        scrape = new PrometheusText(registry.scrape());
        assertThat(scrape.value("memogate_gateway_active{server=\"default\",tier=\"large\"}")).contains(0.0);
        assertThat(scrape.value("memogate_gateway_wait_seconds_count{server=\"default\",tier=\"large\"}")).contains(2.0);
        assertThat(scrape.value("memogate_gateway_rejected_total{reason=\"queue_full\",server=\"default\",tier=\"large\"}")).contains(0.0);
        registry.close();
    }
}
