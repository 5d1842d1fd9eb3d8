package io.memogate.broker;

import static io.memogate.broker.SnapshotBuilder.GIB;
import static io.memogate.broker.SnapshotBuilder.MIB;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import io.memogate.broker.probe.MemoryProbe;

/**
 * The broker as one of a fleet's, over a leadership told what to answer: a follower never polls and takes the
 * leader's publication by its age; a leader publishes each poll; a leader fenced out keeps its own reading.
 */
class FleetBrokerTest {

    private final BrokerSettings settings = BrokerSettings.builder("jdbc:postgresql://db/postgres", "monitor", null)
            .hostMemoryBytes(16 * GIB).interval(Duration.ofSeconds(1)).gracePeriod(Duration.ofSeconds(10)).build();
    private final AtomicInteger polls = new AtomicInteger();
    private final MemoryProbe probe = () -> {
        polls.incrementAndGet();
        return new SnapshotBuilder().cache(4 * GIB).build();
    };
    private final Leadership leadership = new Leadership();
    private final Broker broker = new Broker(settings, probe, System::nanoTime, state -> { }, leadership);

    @Test
    void aFollowerTakesTheLeadersModeAndTargetWhileFresh() {
        leadership.role.set(BrokerRole.follower(3, "other"));
        leadership.published.set(Optional.of(publication(BrokerMode.LIVE, Duration.ofSeconds(2))));

        BrokerState state = broker.pollOnce();

        assertThat(polls).hasValue(0);
        assertThat(state.mode()).isEqualTo(BrokerMode.LIVE);
        assertThat(state.targetBytes()).isEqualTo(900 * MIB);
        assertThat(state.plannerSettings()).containsEntry("geqo", "off");
        assertThat(state.role()).isEqualTo(BrokerRole.follower(3, "other"));
        assertThat(state.lastGoodAge()).contains(Duration.ofSeconds(2));
    }

    @Test
    void aPublicationOlderThanThreeIntervalsIsStaleThenPastTheGraceStatic() {
        leadership.role.set(BrokerRole.follower(3, "other"));
        leadership.published.set(Optional.of(publication(BrokerMode.LIVE, Duration.ofSeconds(4))));
        assertThat(broker.pollOnce()).extracting(BrokerState::mode, BrokerState::targetBytes)
                .containsExactly(BrokerMode.STALE, 900 * MIB);

        leadership.published.set(Optional.of(publication(BrokerMode.LIVE, Duration.ofSeconds(10))));
        assertThat(broker.pollOnce()).extracting(BrokerState::mode, BrokerState::targetBytes)
                .containsExactly(BrokerMode.STATIC, settings.staticTargetBytes());

        leadership.published.set(Optional.empty());
        assertThat(broker.pollOnce().mode()).as("no publication at all").isEqualTo(BrokerMode.STATIC);
        assertThat(polls).hasValue(0);
    }

    @Test
    void aLeaderPollsAndPublishesUnderItsEpoch() {
        leadership.role.set(BrokerRole.leader(7, "self"));

        BrokerState state = broker.pollOnce();

        assertThat(polls).hasValue(1);
        assertThat(state.mode()).isEqualTo(BrokerMode.LIVE);
        assertThat(state.role().epoch()).isEqualTo(7);
        assertThat(leadership.publications).containsExactly(state);
    }

    @Test
    void aNewLeaderSmoothsOnFromTheTargetItFollowed() {
        leadership.role.set(BrokerRole.follower(3, "other"));
        leadership.published.set(Optional.of(publication(BrokerMode.LIVE, Duration.ZERO)));
        broker.pollOnce();
        leadership.role.set(BrokerRole.leader(4, "self"));

        BrokerState leading = broker.pollOnce();

        // Without pressure the target rises towards the raw one by at most a step per poll, from 900 MiB.
        assertThat(leading.targetBytes()).isGreaterThan(900 * MIB).isLessThan(2 * GIB);
    }

    @Test
    void anInstanceWhoseFleetIsAwayPollsForItself() {
        leadership.role.set(BrokerRole.ALONE);

        BrokerState state = broker.pollOnce();

        assertThat(polls).hasValue(1);
        assertThat(state.role()).isEqualTo(BrokerRole.ALONE);
        assertThat(leadership.publications).isEmpty();
    }

    private static PublishedTarget publication(BrokerMode mode, Duration age) {
        return new PublishedTarget(900 * MIB, mode, 3, "other", age, Set.of(), Map.of("geqo", "off"));
    }

    /** Answers what the test set; records what a leader published. */
    private static final class Leadership implements BrokerLeadership {
        final AtomicReference<BrokerRole> role = new AtomicReference<>(BrokerRole.ALONE);
        final AtomicReference<Optional<PublishedTarget>> published = new AtomicReference<>(Optional.empty());
        final List<BrokerState> publications = new ArrayList<>();

        @Override
        public BrokerRole claim() {
            return role.get();
        }

        @Override
        public boolean publish(BrokerRole leader, BrokerState state) {
            publications.add(state);
            return true;
        }

        @Override
        public Optional<PublishedTarget> published() {
            return published.get();
        }
    }
}
