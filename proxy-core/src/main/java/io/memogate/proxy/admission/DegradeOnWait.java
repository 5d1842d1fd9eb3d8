package io.memogate.proxy.admission;

import io.memogate.broker.gateway.GatewayTimer;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * A statement that fits the target but waits for its gateways, and runs under tighter settings instead once it
 * has waited admission.degrade.after ({@link Degrader#withRoom}): when the timer fires and it still waits, it leaves
 * its queue for a degraded admission with room, under the settings the gateways would admit at once. When no step
 * has room it keeps its place and is looked at again one {@code after} later (at least {@link #RETRY_FLOOR}).
 *
 * <p>Concurrency: the timer thread, the session's event loop (withdraw, waiting) and whichever thread decides a
 * ticket meet here; every change of {@link #current} happens under this object's lock, and the gateways' withdraw
 * and acquire are called under it too (the gateways call back after their own lock is released, so the order is
 * always this lock, then theirs). The decision completes once, from the admission that is current then.
 */
final class DegradeOnWait implements Admission {

    /** A degrade tried with no room comes back no sooner than this, whatever after says. */
    static final Duration RETRY_FLOOR = Duration.ofMillis(100);

    /** Chooses tighter settings with room now, for the statement as it waits: empty when none has room. */
    @FunctionalInterface
    interface Chooser {
        Optional<Degrader.Choice> choose();
    }

    /** Admits the chosen settings' estimate. */
    @FunctionalInterface
    interface Admitter {
        Admission admit(Degrader.Choice choice);
    }

    private final CompletableFuture<AdmittedStatement> decision = new CompletableFuture<>();
    private final Admission plain;
    private final Duration after;
    private final GatewayTimer timer;
    private final Chooser chooser;
    private final Admitter admitter;
    /** The admission the decision comes from; null only while the plain one is being withdrawn for a switch. */
    private Admission current;
    private Degraded degraded;
    private boolean decided;
    private GatewayTimer.Cancellable pending;

    DegradeOnWait(Admission plain, Duration after, GatewayTimer timer, Chooser chooser, Admitter admitter) {
        this.plain = plain;
        this.after = after;
        this.timer = timer;
        this.chooser = chooser;
        this.admitter = admitter;
        synchronized (this) {
            current = plain;
            pipe(plain);
            if (!decided) {
                pending = timer.schedule(this::lookAgain, after.toNanos());
            }
        }
    }

    /** On the timer's thread: the statement has waited long enough, if it still waits. */
    private void lookAgain() {
        synchronized (this) {
            if (decided || current != plain) {
                return;
            }
        }
        // Estimated outside the lock: a withdraw from the session's loop must not wait for the ladder's estimates.
        Optional<Degrader.Choice> choice = chooser.choose();
        synchronized (this) {
            if (decided || current != plain) {
                return;
            }
            if (choice.isEmpty()) {
                pending = timer.schedule(this::lookAgain, Math.max(after.toNanos(), RETRY_FLOOR.toNanos()));
                return;
            }
            current = null; // the plain one's cancellation below is the switch's, not the client's
            if (!plain.withdraw()) {
                current = plain; // decided meanwhile: its decision stands (it completes once this lock is free)
                return;
            }
            degraded = choice.get().degraded();
            Admission switched = admitter.admit(choice.get());
            current = switched;
            pipe(switched);
        }
    }

    private void pipe(Admission admission) {
        admission.decision().whenComplete((admitted, failure) -> {
            synchronized (this) {
                if (admission != current || decided) {
                    return;
                }
                decided = true;
                if (pending != null) {
                    pending.cancel();
                }
            }
            if (failure == null) {
                decision.complete(admitted);
            } else {
                decision.completeExceptionally(failure instanceof CompletionException wrapped && wrapped.getCause()
                        != null ? wrapped.getCause() : failure);
            }
        });
    }

    @Override
    public CompletionStage<AdmittedStatement> decision() {
        return decision;
    }

    @Override
    public synchronized boolean withdraw() {
        if (decided || current == null) {
            return false;
        }
        // Under the lock, so that no switch comes between: the current one's cancellation completes the decision.
        boolean withdrawn = current.withdraw();
        if (withdrawn && !decided) {
            decided = true;
            decision.completeExceptionally(new CancellationException("withdrawn while queued"));
        }
        return withdrawn;
    }

    @Override
    public synchronized Optional<WaitNotice> waiting() {
        return current == null ? Optional.empty() : current.waiting();
    }

    @Override
    public synchronized Optional<Degraded> degraded() {
        return Optional.ofNullable(degraded);
    }

    @Override
    public boolean bypassed() {
        return false;
    }
}
