package io.memogate.proxy.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.broker.gateway.GatewayListener;
import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.GatewayTimer;
import io.memogate.broker.gateway.Gateways;
import io.memogate.broker.gateway.LocalGateways;
import io.memogate.broker.gateway.Ticket;
import io.memogate.broker.gateway.Tier;
import io.memogate.estimator.Catalog;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.PreparedStatementTexts;
import io.memogate.estimator.postgres.PlannerSettings;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * admission.degrade.after with a predicted wait: a statement that joins the LARGE queue degrades at once when the
 * holds of LARGE seen so far predict a wait longer than after, and waits for the timer when they predict less or
 * too few were seen. Holds are timed on the test's clock, as the statements give their permits back; the
 * gateways' timer is run by hand, the tasks due at once apart from those due later.
 */
class DegradeOnPredictedWaitTest {

    /** Tasks scheduled on the gateways' timer, with their delays, run when the test says. */
    private static final class TimerByHand implements GatewayTimer {
        private record Task(Runnable task, long delayNanos, boolean[] cancelled) {}

        private final List<Task> tasks = new ArrayList<>();

        @Override
        public synchronized Cancellable schedule(Runnable task, long delayNanos) {
            Task scheduled = new Task(task, delayNanos, new boolean[1]);
            tasks.add(scheduled);
            return () -> scheduled.cancelled()[0] = true;
        }

        /** Runs the tasks due at once (and those they schedule at once), not those due later. */
        void runDueNow() {
            runWhere(false);
        }

        /** Runs every task, whenever due: as if time had passed. */
        void runAll() {
            runWhere(true);
        }

        /** @param later whether the tasks due later run too (once: what they schedule later stays for later) */
        private void runWhere(boolean later) {
            boolean ran = runOnce(later);
            while (ran) {
                ran = runOnce(false);
            }
        }

        private boolean runOnce(boolean later) {
            List<Task> due;
            synchronized (this) {
                due = tasks.stream().filter(t -> later || t.delayNanos() == 0).toList();
                tasks.removeAll(due);
            }
            boolean ran = false;
            for (Task task : due) {
                if (!task.cancelled()[0]) {
                    task.task().run();
                    ran = true;
                }
            }
            return ran;
        }
    }

    private static final PlannerSettings WIDE = DegradeOnWaitTest.WIDE;
    private static final String STAR = DegradeOnWaitTest.STAR;
    private static final List<Degradation> LADDER = DegradeOnWaitTest.LADDER;
    private static final Duration AFTER = Duration.ofSeconds(30);

    private final CompileEstimator estimator = new CompileEstimator();
    private final long starBytes = estimator.estimate(STAR, WIDE, PreparedStatementTexts.NONE, Catalog.NONE)
            .estimatedBytes();
    private final TimerByHand timer = new TimerByHand();
    /** The star fits the target but needs LARGE (over t2 = half the target with MEDIUM empty). */
    private final Gateways gateways = new LocalGateways(GatewaySettings.defaults(2), starBytes * 6 / 5,
            System::nanoTime, (task, delayNanos) -> () -> { }, GatewayListener.NONE);
    private final AtomicLong clock = new AtomicLong();
    private final WaitPredictor waits = new WaitPredictor(clock::get);
    private final DegradeCounts counts = new DegradeCounts();
    private final GatedAdmission admission = new GatedAdmission(() -> estimator, ServerCatalogs.NONE, gateways,
            estimate -> { }, closed -> { }, new RunningHold(() -> Duration.ZERO, timer),
            new StatementRecords(AdmissionControl.ONLY_SERVER, 10, System::nanoTime), () -> SearchTiers.DEFAULTS,
            () -> new DegradePolicy(true, Set.of(), Set.of(), Optional.of(AFTER)), counts, waits);
    private final SessionInfo session = new SessionInfo("reports", "warehouse", "bi",
            new InetSocketAddress("10.1.2.3", 50000));

    private Admission admitStar() {
        return admission.admit(new StatementRequest(STAR, AdmissionPoint.STATEMENT_TEXT, session, 7, WIDE), LADDER);
    }

    /** Runs {@code count} stars alone, each holding LARGE for {@code each} on the test's clock. */
    private void history(int count, Duration each) {
        for (int i = 0; i < count; i++) {
            Admission star = admitStar();
            AdmittedStatement admitted = star.decision().toCompletableFuture().join();
            clock.addAndGet(each.toNanos());
            admitted.signal(ReleaseSignal.FIRST_RESPONSE);
        }
        assertThat(gateways.state(Tier.LARGE).active()).isZero();
    }

    private Ticket holdLarge() {
        Ticket large = gateways.acquire(gateways.target() / 2 + 1, 1);
        assertThat(large.highestTier()).contains(Tier.LARGE);
        return large;
    }

    @Test
    void theStarsOwnHoldsMakeTheHistory() {
        history(WaitPredictor.MIN_HOLDS, Duration.ofSeconds(40));
        assertThat(waits.holds(Tier.LARGE)).isEqualTo(WaitPredictor.MIN_HOLDS);
        assertThat(waits.predict(Tier.LARGE, 1, 1).orElseThrow().meanHold()).isEqualTo(Duration.ofSeconds(40));
        assertThat(counts.total()).as("none of them waited").isZero();
    }

    @Test
    void aWaitPredictedLongerThanAfterDegradesAtOnce() {
        history(WaitPredictor.MIN_HOLDS, Duration.ofSeconds(40));
        holdLarge();
        Admission star = admitStar();
        assertThat(star.decision().toCompletableFuture()).as("queued behind LARGE").isNotDone();
        timer.runDueNow();
        assertThat(star.decision().toCompletableFuture()).as("degraded without waiting after").isCompleted();
        Degraded degraded = star.degraded().orElseThrow();
        assertThat(degraded.reason()).isEqualTo(Degraded.Reason.PREDICTED);
        assertThat(degraded.degradedBytes()).isLessThan(starBytes);
        assertThat(degraded.message()).endsWith("instead of waiting longer than admission.degrade.after for the LARGE "
                + "gateway");
        assertThat(degraded.detail()).contains("; it was degraded on a predicted wait of 40.0 s (position 1 for the "
                + "LARGE gateway, 1 permit, recent holds 40.0 s on average), longer than admission.degrade.after, "
                + "having waited ");
        assertThat(gateways.waiting()).as("it left the LARGE queue").isEmpty();
        assertThat(counts.count(Degraded.Reason.PREDICTED)).isEqualTo(1);
        assertThat(counts.count(Degraded.Reason.WAITED)).isZero();
    }

    @Test
    void aWaitPredictedWithinAfterLeavesItToTheTimer() {
        history(WaitPredictor.MIN_HOLDS, Duration.ofSeconds(20));
        holdLarge();
        Admission star = admitStar();
        timer.runDueNow();
        assertThat(star.decision().toCompletableFuture()).as("20 s predicted, after is 30 s").isNotDone();
        assertThat(gateways.waiting()).singleElement().extracting(w -> w.tier()).isEqualTo(Tier.LARGE);
        timer.runAll();
        assertThat(star.degraded().orElseThrow().reason()).isEqualTo(Degraded.Reason.WAITED);
        assertThat(star.degraded().orElseThrow().detail()).contains("; it had waited ").doesNotContain("predicted");
        assertThat(counts.count(Degraded.Reason.WAITED)).isEqualTo(1);
    }

    @Test
    void withTooFewHoldsSeenTheTimerDecides() {
        history(WaitPredictor.MIN_HOLDS - 1, Duration.ofMinutes(10));
        holdLarge();
        Admission star = admitStar();
        timer.runDueNow();
        assertThat(star.decision().toCompletableFuture()).as("no prediction from four holds").isNotDone();
        timer.runAll();
        assertThat(star.degraded().orElseThrow().reason()).isEqualTo(Degraded.Reason.WAITED);
    }

    @Test
    void aPredictionWithNoStepWithRoomKeepsItsPlaceForTheTimer() {
        history(WaitPredictor.MIN_HOLDS, Duration.ofMinutes(10));
        holdLarge();
        // Limits above the star's 12 tables change nothing: its estimate still needs LARGE, which has no room.
        Admission star = admission.admit(new StatementRequest(STAR, AdmissionPoint.STATEMENT_TEXT, session, 7, WIDE),
                List.of(new Degradation(Map.of("join_collapse_limit", "19", "from_collapse_limit", "19"))));
        timer.runDueNow();
        assertThat(star.decision().toCompletableFuture()).isNotDone();
        assertThat(gateways.waiting()).singleElement().extracting(w -> w.tier()).isEqualTo(Tier.LARGE);
        assertThat(timer.tasks).as("the timer still looks at it after").hasSize(1);
    }

    @Test
    void aStatementAdmittedBeforeTheForecastRunsRunsAsItIs() {
        history(WaitPredictor.MIN_HOLDS, Duration.ofMinutes(10));
        Ticket large = holdLarge();
        Admission star = admitStar();
        large.release();
        assertThat(star.decision().toCompletableFuture()).isCompleted();
        timer.runDueNow();
        assertThat(star.degraded()).isEmpty();
        assertThat(gateways.state(Tier.LARGE).active()).as("the star holds LARGE").isEqualTo(1);
        assertThat(counts.total()).isZero();
    }

    @Test
    void aHoldCutShortByTheRunningHoldIsCountedOnceFromGrantToItsTimer() {
        // A DO block keeps its permits past its first answers, for the running hold at most.
        GatedAdmission holding = new GatedAdmission(() -> estimator, ServerCatalogs.NONE, gateways,
                estimate -> { }, closed -> { }, new RunningHold(() -> Duration.ofSeconds(10), timer),
                new StatementRecords(AdmissionControl.ONLY_SERVER, 10, System::nanoTime), () -> SearchTiers.DEFAULTS,
                () -> DegradePolicy.OFF, counts, waits);
        String doBlock = "do $$ begin perform (" + STAR + "); end $$";
        AdmittedStatement block = holding.admit(new StatementRequest(doBlock, AdmissionPoint.STATEMENT_TEXT, session,
                7, WIDE)).decision().toCompletableFuture().join();
        assertThat(block.plannedWhileRunning()).isTrue();
        block.signal(ReleaseSignal.RUNNING);
        clock.addAndGet(Duration.ofSeconds(10).toNanos());
        timer.runAll(); // the hold runs out: the permits are back
        long seen = waits.holds(Tier.SMALL);
        assertThat(seen).isEqualTo(1);
        clock.addAndGet(Duration.ofMinutes(5).toNanos());
        block.signal(ReleaseSignal.REQUEST_DONE);
        assertThat(waits.holds(Tier.SMALL)).as("its end counts no second hold").isEqualTo(seen);
    }

    @Test
    void aStatementNotPlacedYetIsLookedAtAgainUntilItIs() {
        // The plain admission a fleet's ticket is before Redis has answered its acquire.
        QueuedAdmission plain = new QueuedAdmission();
        AtomicBoolean placed = new AtomicBoolean();
        PredictedWait longWait = new PredictedWait(Tier.LARGE, 1, 1, Duration.ofMinutes(2), Duration.ofMinutes(2));
        Degraded degraded = new Degraded(LADDER.getFirst(), starBytes, starBytes / 2, gateways.target(),
                Optional.of(Duration.ZERO), Optional.of(Tier.LARGE), Optional.of(longWait));
        List<Optional<PredictedWait>> asked = new ArrayList<>();
        DegradeOnWait star = new DegradeOnWait(plain, AFTER, timer, predicted -> {
            asked.add(predicted);
            return Optional.of(new Degrader.Choice(degraded, estimator.estimate(STAR, WIDE,
                    PreparedStatementTexts.NONE, Catalog.NONE)));
        }, choice -> Admission.IMMEDIATE, new DegradeOnWait.Forecaster() {
            @Override
            public boolean placed() {
                return placed.get();
            }

            @Override
            public Optional<PredictedWait> predict() {
                return Optional.of(longWait);
            }
        });
        timer.runDueNow();
        assertThat(star.decision().toCompletableFuture()).as("not placed: nothing to predict from yet").isNotDone();
        assertThat(timer.tasks).as("the timer after, and a look again soon")
                .extracting(t -> t.delayNanos()).containsExactlyInAnyOrder(AFTER.toNanos(),
                        DegradeOnWait.POSITION_RETRY.toNanos());
        placed.set(true);
        timer.tasks.removeIf(t -> t.delayNanos() == AFTER.toNanos()); // time has not come for it
        timer.runAll();
        assertThat(star.decision().toCompletableFuture()).isCompleted();
        assertThat(asked).containsExactly(Optional.of(longWait));
        assertThat(star.degraded()).contains(degraded);
        assertThat(plain.decision).as("it left its queue").isCompletedExceptionally();
    }
}
