package io.memogate.proxy.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The whole list of Prometheus names the product promises, rendered from {@link Names} bound with the
 * meter type and base unit each constant's comment gives. Binders written later (gateways, broker) that
 * follow those comments produce these names; this test fails if Micrometer's naming ever changes them.
 */
class NamesTest {

    @Test
    void everyNameRendersAsThePrometheusNameDashboardsUse() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        for (String tier : new String[] {"small", "medium", "large"}) {
            Gauge.builder(Names.GATEWAY_ACTIVE, () -> 1).tag(Names.TIER, tier).description("d").register(registry);
            Gauge.builder(Names.GATEWAY_WAITING, () -> 0).tag(Names.TIER, tier).description("d").register(registry);
            Gauge.builder(Names.GATEWAY_LIMIT, () -> 4).tag(Names.TIER, tier).description("d").register(registry);
            Gauge.builder(Names.GATEWAY_THRESHOLD, () -> 1 << 20).tag(Names.TIER, tier).description("d")
                    .baseUnit(BaseUnits.BYTES).register(registry);
            Counter.builder(Names.GATEWAY_ADMITTED).tag(Names.TIER, tier).description("d").register(registry);
            Counter.builder(Names.GATEWAY_TIMEOUTS).tag(Names.TIER, tier).description("d").register(registry);
            Counter.builder(Names.GATEWAY_REJECTED).tag(Names.TIER, tier).tag(Names.REASON, "timeout").description("d")
                    .register(registry);
            Timer.builder(Names.GATEWAY_WAIT).tag(Names.TIER, tier).description("d").publishPercentileHistogram()
                    .maximumExpectedValue(Duration.ofMinutes(5)).register(registry).record(Duration.ofMillis(20));
        }
        Gauge.builder(Names.GATEWAY_PAUSED, () -> 0).description("d").register(registry);
        for (String gateway : new String[] {"small", "medium", "big"}) {
            Gauge.builder(Names.SERVER_GATEWAY_ACTIVE, () -> 1).tag(Names.GATEWAY, gateway).description("d")
                    .register(registry);
            Gauge.builder(Names.SERVER_GATEWAY_WAITING, () -> 0).tag(Names.GATEWAY, gateway).description("d")
                    .register(registry);
            Gauge.builder(Names.SERVER_GATEWAY_LIMIT, () -> 8).tag(Names.GATEWAY, gateway).description("d")
                    .register(registry);
        }
        DistributionSummary.builder(Names.ESTIMATE).baseUnit(BaseUnits.BYTES).description("d").register(registry);
        Counter.builder(Names.ESTIMATOR_CACHE_HITS).description("d").register(registry);
        Counter.builder(Names.ESTIMATOR_CACHE_MISSES).description("d").register(registry);
        Counter.builder(Names.ESTIMATOR_FALLBACK).description("d").register(registry);
        Gauge.builder(Names.BROKER_TARGET, () -> 1 << 30).baseUnit(BaseUnits.BYTES).description("d").register(registry);
        TimeGauge.builder(Names.BROKER_SNAPSHOT_AGE, () -> 1500, TimeUnit.MILLISECONDS).description("d").register(registry);
        Counter.builder(Names.BROKER_PROBE_FAILURES).description("d").register(registry);
        Gauge.builder(Names.CLIENT_CONNECTIONS, () -> 2).baseUnit(BaseUnits.CONNECTIONS).description("d").register(registry);
        Gauge.builder(Names.SERVER_CONNECTIONS, () -> 2).baseUnit(BaseUnits.CONNECTIONS).description("d").register(registry);
        Timer.builder(Names.EVENT_LOOP_LAG).tag(Names.LOOP, "memogate-loop-1-1").description("d")
                .publishPercentileHistogram().register(registry).record(Duration.ofMillis(3));

        PrometheusText scrape = new PrometheusText(registry.scrape());

        assertThat(scrape.sampleNames()).containsExactlyInAnyOrder(
                "memogate_gateway_active",
                "memogate_server_gateway_active",
                "memogate_server_gateway_waiting",
                "memogate_server_gateway_limit",
                "memogate_gateway_waiting",
                "memogate_gateway_limit",
                "memogate_gateway_threshold_bytes",
                "memogate_gateway_admitted_total",
                "memogate_gateway_timeouts_total",
                "memogate_gateway_rejected_total",
                "memogate_gateway_wait_seconds_bucket",
                "memogate_gateway_wait_seconds_count",
                "memogate_gateway_wait_seconds_sum",
                "memogate_gateway_wait_seconds_max",
                "memogate_gateway_paused",
                "memogate_estimate_bytes_count",
                "memogate_estimate_bytes_sum",
                "memogate_estimate_bytes_max",
                "memogate_estimator_cache_hits_total",
                "memogate_estimator_cache_misses_total",
                "memogate_estimator_fallback_total",
                "memogate_broker_target_bytes",
                "memogate_broker_snapshot_age_seconds",
                "memogate_broker_probe_failures_total",
                "memogate_client_connections",
                "memogate_server_connections",
                "memogate_eventloop_lag_seconds_bucket",
                "memogate_eventloop_lag_seconds_count",
                "memogate_eventloop_lag_seconds_sum",
                "memogate_eventloop_lag_seconds_max");
        assertThat(scrape.value("memogate_gateway_rejected_total{reason=\"timeout\",tier=\"medium\"}")).contains(0.0);
        assertThat(scrape.value("memogate_gateway_wait_seconds_count{tier=\"large\"}")).contains(1.0);
        assertThat(scrape.value("memogate_broker_snapshot_age_seconds")).contains(1.5);
        assertThat(scrape.value("memogate_gateway_threshold_bytes{tier=\"small\"}")).contains(1048576.0);
        assertThat(scrape.value("memogate_eventloop_lag_seconds_max{name=\"memogate-loop-1-1\"}")).contains(0.003);
        registry.close();
    }
}
