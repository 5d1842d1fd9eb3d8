package io.memogate.proxy.admission;

import io.memogate.broker.gateway.GatewayTimer;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * A statement that fits the target but waits for its gateways, and runs under tighter settings instead when its
 * wait is predicted to be longer than admission.degrade.after ({@link WaitPredictor}), or once it has waited that
 * long ({@link Degrader#withRoom}): it leaves its queue for a degraded admission with room, under the settings the
 * gateways would admit at once.
 *
 * <p>The prediction is made once, as it joins its queue (on the gateways' timer, right away: the ladder's estimates
 * are not made on the session's event loop). A fleet's gateways say where a statement waits only once Redis has
 * answered its acquire, so while they have not, it is looked at again every {@link #POSITION_RETRY}, for as long as
 * {@code after} or {@link #POSITION_WAIT}, whichever is shorter. A prediction within {@code after}, none (too little history), or no step with room
 * leaves the statement to the timer: once it has waited {@code after} and still waits, it degrades with room; when
 * no step has room it keeps its place and is looked at again one {@code after} later (at least
 * {@link #RETRY_FLOOR}).
 *
 * <p>Concurrency: the timer thread, the session's event loop (withdraw, waiting) and whichever thread decides a
 * ticket meet here; every change of {@link #current} happens under this object's lock, and the gateways' withdraw
 * and acquire are called under it too (the gateways call back after their own lock is released, so the order is
 * always this lock, then theirs). The decision completes once, from the admission that is current then.
 */
final class DegradeOnWait implements Admission {

    /** A degrade tried with no room comes back no sooner than this, whatever after says. */
    static final Duration RETRY_FLOOR = Duration.ofMillis(100);
    /** How often a statement whose place in its queue is not known yet is looked at again for a prediction. */
    static final Duration POSITION_RETRY = Duration.ofMillis(20);
    /** How long at most it is looked at again so: a fleet answers an acquire within milliseconds when it answers. */
    static final Duration POSITION_WAIT = Duration.ofSeconds(5);

    /** Chooses tighter settings with room now, for the statement as it waits: empty when none has room. */
    @FunctionalInterface
    interface Chooser {
        /** @param predicted the wait predicted for it, when that is why it degrades */
        Optional<Degrader.Choice> choose(Optional<PredictedWait> predicted);
    }

    /** Admits the chosen settings' estimate. */
    @FunctionalInterface
    interface Admitter {
        Admission admit(Degrader.Choice choice);
    }

    /** Predicts the statement's wait from where it waits now. */
    interface Forecaster {
        /** No prediction is ever made. */
        Forecaster NONE = new Forecaster() {
            @Override
            public boolean placed() {
                return true;
            }

            @Override
            public Optional<PredictedWait> predict() {
                return Optional.empty();
            }
        };

        /** Whether the gateways have said where it waits (or it waits no more). */
        boolean placed();

        /** Its predicted wait; empty when none can be made. */
        Optional<PredictedWait> predict();
    }

    private final CompletableFuture<AdmittedStatement> decision = new CompletableFuture<>();
    private final Admission plain;
    private final Duration after;
    private final GatewayTimer timer;
    private final Chooser chooser;
    private final Admitter admitter;
    private final Forecaster forecaster;
    /** The admission the decision comes from; null only while the plain one is being withdrawn for a switch. */
    private Admission current;
    private Degraded degraded;
    private boolean decided;
    private GatewayTimer.Cancellable pending;
    private GatewayTimer.Cancellable forecast;
    /** Looks for a prediction made while the place in the queue was not known yet. */
    private int forecastTries;

    DegradeOnWait(Admission plain, Duration after, GatewayTimer timer, Chooser chooser, Admitter admitter) {
        this(plain, after, timer, chooser, admitter, Forecaster.NONE);
    }

    DegradeOnWait(Admission plain, Duration after, GatewayTimer timer, Chooser chooser, Admitter admitter,
                  Forecaster forecaster) {
        this.plain = plain;
        this.after = after;
        this.timer = timer;
        this.chooser = chooser;
        this.admitter = admitter;
        this.forecaster = forecaster;
        synchronized (this) {
            current = plain;
            pipe(plain);
            if (!decided) {
                pending = timer.schedule(this::lookAgain, after.toNanos());
                if (forecaster != Forecaster.NONE) {
                    forecast = timer.schedule(this::forecast, 0);
                }
            }
        }
    }

    /** On the timer's thread, as it joins its queue: degrades it at once when its wait is predicted past after. */
    private void forecast() {
        synchronized (this) {
            if (decided || current != plain) {
                return;
            }
        }
        if (!forecaster.placed()) {
            synchronized (this) {
                long tries = Math.min(after.toNanos(), POSITION_WAIT.toNanos()) / POSITION_RETRY.toNanos();
                if (!decided && current == plain && ++forecastTries < tries) {
                    forecast = timer.schedule(this::forecast, POSITION_RETRY.toNanos());
                }
            }
            return;
        }
        Optional<PredictedWait> predicted = forecaster.predict();
        if (predicted.isPresent() && predicted.get().expected().compareTo(after) > 0) {
            // No step with room: the timer still looks again once it has waited after.
            switchTo(chooser.choose(predicted));
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
        Optional<Degrader.Choice> choice = chooser.choose(Optional.empty());
        synchronized (this) {
            if (choice.isEmpty() && !decided && current == plain) {
                pending = timer.schedule(this::lookAgain, Math.max(after.toNanos(), RETRY_FLOOR.toNanos()));
                return;
            }
        }
        switchTo(choice);
    }

    /** Leaves the queue for {@code choice}'s admission, if the statement still waits there. */
    private void switchTo(Optional<Degrader.Choice> choice) {
        synchronized (this) {
            if (choice.isEmpty() || decided || current != plain) {
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
                if (forecast != null) {
                    forecast.cancel();
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
