package io.memogate.broker;

import static io.memogate.broker.SnapshotBuilder.GIB;
import static io.memogate.broker.SnapshotBuilder.MIB;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import io.memogate.broker.probe.MemoryProbe;
import io.memogate.broker.probe.MemorySnapshot;
import io.memogate.broker.probe.ProbeException;
import io.memogate.broker.probe.ProbeFactory;
import io.memogate.broker.probe.ProbeSettings;

class BrokerTest {

    private static final long SECOND = 1_000_000_000L;
    /** 16 GiB host, 4 GiB cache, 10 running queries x 128 MiB: half of 11008 MiB. */
    private static final long RAW = 5504 * MIB;

    private final AtomicLong clock = new AtomicLong(1_000 * SECOND);
    private final BrokerSettings settings = BrokerSettings.builder("jdbc:postgresql://db/postgres", "monitor", "secret")
            .hostMemoryBytes(16 * GIB).gracePeriod(Duration.ofSeconds(10)).build();
    private final List<BrokerState> published = new ArrayList<>();
    /** What the fake probe does next: return this snapshot, or throw {@link #failure} when it is set. */
    private final AtomicReference<SnapshotBuilder> server = new AtomicReference<>(server());
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private final MemoryProbe probe = () -> {
        Exception next = failure.get();
        if (next instanceof ProbeException e) {
            throw e;
        }
        if (next instanceof RuntimeException e) {
            throw e;
        }
        return server.get().at(clock.get()).build();
    };
    private final Broker broker = new Broker(settings, probe, clock::get, published::add);

    private static SnapshotBuilder server() {
        return new SnapshotBuilder().cache(4 * GIB).running(20, 10, 128 * MIB)
                .retainedBytes(Map.of(1000, 30 * MIB)).counters(0, 0, 1000);
    }

    @Test
    void beforeTheFirstPollTheTargetIsStatic() {
        BrokerState state = broker.state();

        assertThat(state.mode()).isEqualTo(BrokerMode.STATIC);
        assertThat(state.targetBytes()).isEqualTo(BrokerSettings.DEFAULT_STATIC_TARGET_BYTES);
        assertThat(state.lastGoodSnapshot()).isEmpty();
        assertThat(state.plannerSettings()).isEmpty();
        assertThat(published).isEmpty();
    }

    @Test
    void aGoodPollMakesTheBrokerLiveWithTheServersFigures() {
        BrokerState state = broker.pollOnce();

        assertThat(state.mode()).isEqualTo(BrokerMode.LIVE);
        assertThat(state.targetBytes()).isEqualTo(RAW);
        assertThat(state.lastGoodAge()).hasValue(Duration.ZERO);
        assertThat(state.plannerSettings()).containsEntry("join_collapse_limit", "8");
        assertThat(state.privateBytesByPid()).containsExactly(Map.entry(1000, 30 * MIB));
        assertThat(state.consecutiveFailures()).isZero();
        assertThat(state.lastFailure()).isEmpty();
        assertThat(broker.state()).isSameAs(state);
    }

    @Test
    void aFactoryOpensTheProbeForTheMonitoringConnectionOnTheBrokersClock() {
        AtomicReference<ProbeSettings> opened = new AtomicReference<>();
        ProbeFactory factory = (probeSettings, nanoTime) -> {
            opened.set(probeSettings);
            return () -> server.get().at(nanoTime.getAsLong()).build();
        };
        Broker made = new Broker(settings, factory, clock::get, state -> { });
        clock.addAndGet(SECOND);

        BrokerState state = made.pollOnce();

        assertThat(opened.get()).isEqualTo(settings.probeSettings());
        assertThat(state.targetBytes()).isEqualTo(RAW);
        assertThat(state.lastGoodSnapshot().orElseThrow().takenAtNanos()).isEqualTo(clock.get());
        assertThat(state.lastGoodAge()).hasValue(Duration.ZERO);
    }

    @Test
    void failedPollsWithinTheGraceKeepTheLastTargetAndSayWhy() {
        MemorySnapshot good = broker.pollOnce().lastGoodSnapshot().orElseThrow();
        failure.set(new ProbeException("connection refused"));

        clock.addAndGet(4 * SECOND);
        broker.pollOnce();
        clock.addAndGet(5 * SECOND);
        BrokerState state = broker.pollOnce();

        assertThat(state.mode()).isEqualTo(BrokerMode.STALE);
        assertThat(state.targetBytes()).isEqualTo(RAW);
        assertThat(state.lastGoodSnapshot()).containsSame(good);
        assertThat(state.lastGoodAge()).hasValue(Duration.ofSeconds(9));
        assertThat(state.consecutiveFailures()).isEqualTo(2);
        assertThat(state.totalFailures()).isEqualTo(2);
        assertThat(state.lastFailure()).hasValue("connection refused");
        assertThat(state.plannerSettings()).isEqualTo(good.plannerSettings());
    }

    @Test
    void onceTheGraceRunsOutTheTargetFallsBackToStatic() {
        MemorySnapshot good = broker.pollOnce().lastGoodSnapshot().orElseThrow();
        failure.set(new ProbeException("connection refused"));
        clock.addAndGet(5 * SECOND);
        assertThat(broker.pollOnce().mode()).isEqualTo(BrokerMode.STALE);

        clock.addAndGet(5 * SECOND);
        BrokerState state = broker.pollOnce();

        assertThat(state.mode()).isEqualTo(BrokerMode.STATIC);
        assertThat(state.targetBytes()).isEqualTo(settings.staticTargetBytes());
        assertThat(state.plannerSettings()).isEmpty();
        assertThat(state.privateBytesByPid()).isEmpty();
        assertThat(state.pressureSignals()).isEmpty();
        assertThat(state.lastGoodSnapshot()).as("still reported, for what it is: old").containsSame(good);
        assertThat(state.lastGoodAge()).hasValue(Duration.ofSeconds(10));
        assertThat(state.consecutiveFailures()).isEqualTo(2);
    }

    @Test
    void aZeroGraceFallsBackToStaticAtTheFirstFailure() {
        Broker impatient = new Broker(settings.toBuilder().gracePeriod(Duration.ZERO).build(), probe, clock::get,
                state -> { });
        impatient.pollOnce();
        failure.set(new ProbeException("timeout"));

        assertThat(impatient.pollOnce().mode()).isEqualTo(BrokerMode.STATIC);
    }

    @Test
    void aGoodPollAfterTheFallbackIsLiveAgainAndCountsAreKept() {
        broker.pollOnce();
        failure.set(new ProbeException("connection refused"));
        for (int poll = 0; poll < 12; poll++) {
            clock.addAndGet(SECOND);
            broker.pollOnce();
        }
        assertThat(broker.state().mode()).isEqualTo(BrokerMode.STATIC);

        failure.set(null);
        clock.addAndGet(SECOND);
        BrokerState state = broker.pollOnce();

        assertThat(state.mode()).isEqualTo(BrokerMode.LIVE);
        assertThat(state.targetBytes()).as("starts afresh at raw").isEqualTo(RAW);
        assertThat(state.consecutiveFailures()).isZero();
        assertThat(state.totalFailures()).isEqualTo(12);
        assertThat(state.lastFailure()).hasValue("connection refused");
        assertThat(state.lastInterval()).as("no interval across the outage").isEmpty();
    }

    @Test
    void aFailureBeforeAnyGoodPollKeepsTheStaticTarget() {
        failure.set(new ProbeException("password authentication failed"));

        BrokerState state = broker.pollOnce();

        assertThat(state.mode()).isEqualTo(BrokerMode.STATIC);
        assertThat(state.targetBytes()).isEqualTo(settings.staticTargetBytes());
        assertThat(state.lastFailure()).hasValue("password authentication failed");
        assertThat(state.consecutiveFailures()).isEqualTo(1);
    }

    @Test
    void aProbeThatThrowsUncheckedCountsAsAFailedPoll() {
        broker.pollOnce();
        failure.set(new IllegalStateException("bug"));

        BrokerState state = broker.pollOnce();

        assertThat(state.mode()).isEqualTo(BrokerMode.STALE);
        assertThat(state.lastFailure().orElseThrow()).contains("IllegalStateException: bug");
    }

    @Test
    void theListenerHearsEveryPollGoodOrFailed() {
        List<BrokerState> returned = new ArrayList<>();
        returned.add(broker.pollOnce());
        failure.set(new ProbeException("down"));
        clock.addAndGet(SECOND);
        returned.add(broker.pollOnce());
        clock.addAndGet(20 * SECOND);
        returned.add(broker.pollOnce());
        failure.set(null);
        returned.add(broker.pollOnce());

        assertThat(published).containsExactlyElementsOf(returned);
        assertThat(published).extracting(BrokerState::mode)
                .containsExactly(BrokerMode.LIVE, BrokerMode.STALE, BrokerMode.STATIC, BrokerMode.LIVE);
    }

    @Test
    void aListenerThatThrowsDoesNotStopPolling() {
        AtomicLong calls = new AtomicLong();
        Broker withBadListener = new Broker(settings, probe, clock::get, state -> {
            calls.incrementAndGet();
            throw new IllegalStateException("listener bug");
        });

        withBadListener.pollOnce();
        clock.addAndGet(SECOND);
        BrokerState second = withBadListener.pollOnce();

        assertThat(calls).hasValue(2);
        assertThat(second.mode()).isEqualTo(BrokerMode.LIVE);
    }

    @Test
    void intervalsAreMeasuredBetweenPollsAndRisingSpillsShrinkTheTarget() {
        broker.pollOnce();
        clock.addAndGet(SECOND);
        server.set(server().counters(10 * MIB, 0, 2000));
        BrokerState second = broker.pollOnce();
        clock.addAndGet(SECOND);
        server.set(server().counters(50 * MIB, 0, 3000));
        BrokerState third = broker.pollOnce();

        assertThat(second.lastInterval().orElseThrow())
                .isEqualTo(new IntervalStatistics(SECOND, 10 * MIB, 0, 1000, Optional.empty()));
        assertThat(second.pressureSignals()).as("one interval has nothing to compare with").isEmpty();
        assertThat(third.lastInterval().orElseThrow().spilledBytes()).isEqualTo(40 * MIB);
        assertThat(third.pressureSignals()).containsExactly(PressureSignal.SPILLS_RISING);
        assertThat(third.targetBytes()).isEqualTo((long) (RAW * 0.75));
    }

    @Test
    void aStalePeriodKeepsTheSignalsAndTheSmoothingGoesOnAfterIt() {
        broker.pollOnce();
        clock.addAndGet(SECOND);
        server.set(server().meminfo(16 * GIB, GIB));
        long shrunk = broker.pollOnce().targetBytes();
        failure.set(new ProbeException("blip"));
        clock.addAndGet(SECOND);
        BrokerState stale = broker.pollOnce();
        failure.set(null);
        server.set(server());
        clock.addAndGet(SECOND);
        BrokerState recovered = broker.pollOnce();

        assertThat(stale.pressureSignals()).containsExactly(PressureSignal.MEMORY_NEAR_LIMIT);
        assertThat(stale.targetBytes()).isEqualTo(shrunk);
        assertThat(recovered.targetBytes()).as("rises by 5%% of raw, not back to raw")
                .isEqualTo(shrunk + (long) Math.ceil(0.05 * RAW));
    }

    @Test
    void startPollsOnTheBrokersDaemonThreadAndCloseClosesTheProbe() throws InterruptedException {
        CountDownLatch polls = new CountDownLatch(3);
        AtomicReference<Thread> pollingThread = new AtomicReference<>();
        AtomicBoolean probeClosed = new AtomicBoolean();
        MemoryProbe closeable = new MemoryProbe() {
            @Override
            public MemorySnapshot probe() throws ProbeException {
                return probe.probe();
            }

            @Override
            public void close() {
                probeClosed.set(true);
            }
        };
        Broker running = new Broker(settings.toBuilder().interval(Duration.ofMillis(1)).build(), closeable, clock::get,
                state -> {
                    pollingThread.set(Thread.currentThread());
                    polls.countDown();
                });

        running.start();
        assertThat(polls.await(10, TimeUnit.SECONDS)).as("three polls").isTrue();
        assertThatThrownBy(running::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("started");
        running.close();

        assertThat(pollingThread.get().getName()).isEqualTo("memogate-broker");
        assertThat(pollingThread.get().isDaemon()).isTrue();
        assertThat(probeClosed).isTrue();
        pollingThread.get().join(TimeUnit.SECONDS.toMillis(10));
        assertThat(pollingThread.get().isAlive()).as("poller thread ended").isFalse();
        BrokerState last = running.state();
        assertThat(running.pollOnce()).as("no poll after close").isSameAs(last);
        assertThatThrownBy(running::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }
}
