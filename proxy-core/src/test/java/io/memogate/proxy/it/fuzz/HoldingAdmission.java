package io.memogate.proxy.it.fuzz;

import io.memogate.proxy.admission.Admission;
import io.memogate.proxy.admission.AdmissionHook;
import io.memogate.proxy.admission.AdmittedStatement;
import io.memogate.proxy.admission.ReleaseSignal;
import io.memogate.proxy.admission.StatementRequest;
import io.memogate.proxy.testing.Await;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The admission of the fuzz test's third proxy, which holds statements as a gateway holds a queued one: most are
 * admitted 0 to {@value #MAX_DELAY_MILLIS} ms later by another thread, so the session holds the statement and
 * queues what the client sends behind it (AdmissionFlow), the rest at once. Some of them say they are planned
 * while they run, so the session keeps their Binds past BindComplete. Each admitted statement is counted until it
 * hears a final release signal: one still unreleased after its session ended kept its permits for ever.
 *
 * <p>The draws come from the case's seed ({@link #newCase}), so a case replays the same decisions; when they
 * land depends on the machine's timing, as it does for the sizes of the reads. Cases run one at a time.
 */
final class HoldingAdmission implements AdmissionHook, AutoCloseable {

    private static final int MAX_DELAY_MILLIS = 20;

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("fuzz-admission").daemon().factory());
    /** Statements asked about whose decision has not come yet. */
    private final AtomicInteger undecided = new AtomicInteger();
    /** Statements admitted that have heard no final release signal yet. */
    private final AtomicInteger unreleased = new AtomicInteger();
    /** Guarded by this: admit is called on the session's event loop, newCase on the test's thread. */
    private Random draws = new Random(0);

    /** The next statements are the case's of this seed. */
    synchronized void newCase(long seed) {
        draws = new Random(seed);
    }

    @Override
    public Admission admit(StatementRequest request) {
        int delay;
        boolean plannedWhileRunning;
        synchronized (this) {
            delay = draws.nextInt(4) == 0 ? -1 : draws.nextInt(MAX_DELAY_MILLIS + 1);
            plannedWhileRunning = draws.nextInt(4) == 0;
        }
        if (delay < 0) {
            return Admission.of(CompletableFuture.completedFuture(admitted(plannedWhileRunning)));
        }
        undecided.incrementAndGet();
        CompletableFuture<AdmittedStatement> decision = new CompletableFuture<>();
        timer.schedule(() -> {
            AdmittedStatement statement = admitted(plannedWhileRunning); // counted before it stops being undecided
            undecided.decrementAndGet();
            decision.complete(statement);
        }, delay, TimeUnit.MILLISECONDS);
        return Admission.of(decision);
    }

    /**
     * Waits until every statement asked about was decided and every admitted one released, for at most
     * {@code millis}; returns how many admitted statements are still unreleased then.
     */
    int awaitReleased(long millis) throws InterruptedException {
        Await.holdsWithin(Duration.ofMillis(millis), () -> undecided.get() == 0 && unreleased.get() == 0);
        return unreleased.get();
    }

    /** Forgets what earlier cases left, once reported, so that each case reports only its own. */
    void reset() {
        unreleased.set(0);
    }

    private AdmittedStatement admitted(boolean plannedWhileRunning) {
        unreleased.incrementAndGet();
        return new AdmittedStatement() {
            private boolean released;

            @Override
            public void signal(ReleaseSignal signal) {
                if (signal.isFinal() && !released) {
                    released = true;
                    unreleased.decrementAndGet();
                }
            }

            @Override
            public boolean plannedWhileRunning() {
                return plannedWhileRunning;
            }
        };
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
