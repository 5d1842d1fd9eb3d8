package io.memogate.broker.redis;

import static io.memogate.broker.redis.Fleet.MB;
import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.broker.Broker;
import io.memogate.broker.BrokerLeadership;
import io.memogate.broker.BrokerMode;
import io.memogate.broker.BrokerRole;
import io.memogate.broker.BrokerSettings;
import io.memogate.broker.BrokerState;
import io.memogate.broker.probe.HostMemory;
import io.memogate.broker.probe.MemoryProbe;
import io.memogate.broker.probe.MemorySnapshot;
import io.memogate.broker.probe.PressureCounters;
import io.memogate.broker.probe.ServerConnections;
import io.memogate.broker.probe.ServerMemory;
import io.memogate.broker.probe.ServerVersion;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One broker per server for a fleet, elected in a real Redis: one instance polls the server and publishes the
 * target, the others read it; when the leader stops, another takes the lease under a new epoch, and the old
 * leader's publications are refused. The server is a probe that counts its polls and answers a fixed reading.
 */
class FleetBrokerIT {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();
    private static final Duration INTERVAL = Duration.ofMillis(100);

    private Fleet fleet;
    private final List<Broker> brokers = new ArrayList<>();

    @BeforeEach
    void newFleet() {
        fleet = new Fleet(redis);
    }

    @AfterEach
    void closeAll() {
        brokers.forEach(Broker::close);
        fleet.close();
    }

    @Test
    void oneInstancePollsTheServerAndTheOtherTakesItsTarget() {
        CountingProbe probeA = new CountingProbe("off");
        CountingProbe probeB = new CountingProbe("on");
        Broker a = broker(fleet.join(Fleet.settings(4, 1, 1), 100 * MB), probeA, Duration.ofSeconds(10));
        Broker b = broker(fleet.join(Fleet.settings(4, 1, 1), 100 * MB), probeB, Duration.ofSeconds(10));

        BrokerState leading = a.pollOnce();
        for (int i = 0; i < 5; i++) {
            b.pollOnce();
            a.pollOnce();
        }
        BrokerState following = b.pollOnce();

        assertThat(leading.role().kind()).isEqualTo(BrokerRole.Kind.LEADER);
        assertThat(following.role()).isEqualTo(BrokerRole.follower(leading.role().epoch(), leading.role().leader()));
        assertThat(probeB.polls).as("the follower never polls the server").hasValue(0);
        assertThat(probeA.polls).hasValue(6);
        assertThat(following.mode()).isEqualTo(BrokerMode.LIVE);
        assertThat(following.targetBytes()).isEqualTo(a.state().targetBytes());
        assertThat(following.plannerSettings()).as("the server's settings as the leader read them")
                .containsEntry("geqo", "off");
    }

    @Test
    void whenTheLeaderStopsRenewingTheOtherTakesOverAndTheOldEpochIsRefused() throws Exception {
        fleet.lease(Duration.ofSeconds(1));
        RedisGateways first = fleet.join(Fleet.settings(4, 1, 1), 100 * MB);
        RedisGateways second = fleet.join(Fleet.settings(4, 1, 1), 100 * MB);
        CountingProbe probeB = new CountingProbe("on");
        Broker a = broker(first, new CountingProbe("off"), Duration.ofSeconds(10));
        Broker b = broker(second, probeB, Duration.ofSeconds(10));
        BrokerState old = a.pollOnce();
        assertThat(b.pollOnce().role().kind()).isEqualTo(BrokerRole.Kind.FOLLOWER);

        b.start(); // A polls no more: its lease runs out, and B's next poll takes it
        Eventually.until("the follower leads", () -> b.state().role().kind() == BrokerRole.Kind.LEADER,
                b::state);

        assertThat(b.state().role().epoch()).isGreaterThan(old.role().epoch());
        assertThat(probeB.polls.get()).isPositive();
        BrokerLeadership stale = first.brokerLeadership(INTERVAL);
        assertThat(stale.publish(old.role(), old)).as("a publication under the old epoch").isFalse();
        Eventually.until("the new leader has published", () -> stale.published().isPresent()
                && stale.published().get().epoch() == b.state().role().epoch());
        assertThat(stale.published().orElseThrow().leader()).isEqualTo(b.state().role().leader());
        assertThat(a.pollOnce().role().kind()).as("the old leader follows").isEqualTo(BrokerRole.Kind.FOLLOWER);
    }

    @Test
    void aLeaderThatLeavesTheFleetHandsTheLeaseOverAtOnce() {
        RedisGateways first = fleet.join(Fleet.settings(4, 1, 1), 100 * MB);
        Broker a = broker(first, new CountingProbe("off"), Duration.ofSeconds(10));
        Broker b = broker(fleet.join(Fleet.settings(4, 1, 1), 100 * MB), new CountingProbe("on"), Duration.ofSeconds(10));
        long epoch = a.pollOnce().role().epoch();
        assertThat(b.pollOnce().role().kind()).isEqualTo(BrokerRole.Kind.FOLLOWER);

        first.close();

        BrokerState next = b.pollOnce();
        assertThat(next.role().kind()).isEqualTo(BrokerRole.Kind.LEADER);
        assertThat(next.role().epoch()).isEqualTo(epoch + 1);
    }

    @Test
    void aFollowerWhoseLeaderFallsSilentGoesStaleThenStatic() throws Exception {
        // The lease outlasts the grace period: nobody takes over, and the publication only ages.
        Broker a = broker(fleet.join(Fleet.settings(4, 1, 1), 100 * MB), new CountingProbe("off"),
                Duration.ofSeconds(1));
        CountingProbe probeB = new CountingProbe("on");
        Broker b = broker(fleet.join(Fleet.settings(4, 1, 1), 100 * MB), probeB, Duration.ofSeconds(1));
        long leaders = a.pollOnce().targetBytes();

        Eventually.until("the follower keeps the aging target as stale", () -> b.pollOnce().mode() == BrokerMode.STALE);
        assertThat(b.state().targetBytes()).isEqualTo(leaders);
        Eventually.until("the follower falls to the static target", () -> b.pollOnce().mode() == BrokerMode.STATIC);
        assertThat(b.state().targetBytes()).isEqualTo(BrokerSettings.DEFAULT_STATIC_TARGET_BYTES);
        assertThat(b.state().role().kind()).isEqualTo(BrokerRole.Kind.FOLLOWER);
        assertThat(probeB.polls).hasValue(0);
    }

    private Broker broker(RedisGateways gateways, MemoryProbe probe, Duration grace) {
        BrokerSettings settings = BrokerSettings.builder("jdbc:postgresql://db/postgres", "monitor", null)
                .interval(INTERVAL).gracePeriod(grace).hostMemoryBytes(16L << 30).build();
        Broker broker = new Broker(settings, probe, System::nanoTime, state -> { },
                gateways.brokerLeadership(settings.interval()));
        brokers.add(broker);
        return broker;
    }

    /** An idle server on a 16 GiB host, its geqo setting as given; counts the polls it answers. */
    private static final class CountingProbe implements MemoryProbe {
        final AtomicInteger polls = new AtomicInteger();
        private final String geqo;

        CountingProbe(String geqo) {
            this.geqo = geqo;
        }

        @Override
        public MemorySnapshot probe() {
            polls.incrementAndGet();
            return new MemorySnapshot(System.nanoTime(), new ServerVersion("17.5", 170005),
                    new ServerMemory(128 * MB, 0, OptionalLong.empty(), OptionalLong.empty(), Map.of()),
                    new ServerConnections(100, 0, List.of()),
                    new PressureCounters(0, 0, 0, Optional.empty(), OptionalLong.empty()),
                    Map.of("geqo", geqo), new HostMemory(OptionalLong.of(16L << 30), OptionalLong.of(8L << 30)));
        }
    }
}
