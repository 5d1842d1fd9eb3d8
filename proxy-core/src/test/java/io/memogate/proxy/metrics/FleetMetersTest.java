package io.memogate.proxy.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.broker.BrokerRole;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** A fleet's meters as Prometheus scrapes them, following the broker's role as it changes. */
class FleetMetersTest {

    private static final String LEADER = "memogate_fleet_broker_role{role=\"leader\",server=\"main\"}";
    private static final String FOLLOWER = "memogate_fleet_broker_role{role=\"follower\",server=\"main\"}";
    private static final String ALONE = "memogate_fleet_broker_role{role=\"alone\",server=\"main\"}";
    private static final String EPOCH = "memogate_fleet_broker_epoch{server=\"main\"}";

    @Test
    void theBrokersRoleAndEpochFollowItsLastPoll() {
        AtomicReference<BrokerRole> role = new AtomicReference<>(BrokerRole.follower(3, "977-0f0e0d0c"));
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new FleetMeters("main", () -> false, () -> 2, Optional.<Supplier<BrokerRole>>of(role::get)).bindTo(registry);

        PrometheusText scrape = new PrometheusText(registry.scrape());
        assertThat(scrape.value(FOLLOWER)).contains(1.0);
        assertThat(scrape.value(LEADER)).contains(0.0);
        assertThat(scrape.value(ALONE)).contains(0.0);
        assertThat(scrape.value(EPOCH)).contains(3.0);
        assertThat(scrape.value("memogate_fleet_mode{mode=\"fleet\",server=\"main\"}")).contains(1.0);

        role.set(BrokerRole.leader(4, "4242-1a2b3c4d"));
        scrape = new PrometheusText(registry.scrape());
        assertThat(scrape.value(LEADER)).contains(1.0);
        assertThat(scrape.value(FOLLOWER)).contains(0.0);
        assertThat(scrape.value(EPOCH)).contains(4.0);

        role.set(BrokerRole.ALONE);
        scrape = new PrometheusText(registry.scrape());
        assertThat(scrape.value(ALONE)).contains(1.0);
        assertThat(scrape.value(LEADER)).contains(0.0);
        assertThat(scrape.value(EPOCH)).contains(0.0);
    }

    @Test
    void withoutABrokerThereIsNoRole() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new FleetMeters("main", () -> true, () -> 3, Optional.empty()).bindTo(registry);

        PrometheusText scrape = new PrometheusText(registry.scrape());
        assertThat(scrape.value(EPOCH)).isEmpty();
        assertThat(scrape.value(LEADER)).isEmpty();
        assertThat(scrape.value("memogate_fleet_mode{mode=\"local\",server=\"main\"}")).contains(1.0);
        assertThat(scrape.value("memogate_fleet_instances{server=\"main\"}")).contains(3.0);
    }
}
