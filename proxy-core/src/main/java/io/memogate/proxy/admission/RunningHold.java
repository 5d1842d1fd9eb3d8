package io.memogate.proxy.admission;

import io.memogate.broker.gateway.GatewayTimer;
import io.memogate.broker.gateway.Ticket;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * admission.holdWhileRunning: how long at most a statement planned while it runs (a DO block, a call of a
 * PL/pgSQL or SQL routine) keeps its permits once the server has started on it. Its first answers come before that
 * planning, so it keeps them past those; but an ETL procedure may run for hours after planning its one
 * large join, and holding LARGE that long would queue every other large statement until its tier's
 * timeout refuses it. So a timer gives the permits back once the hold has passed, if the statement's end
 * has not given them back before (that end cancels the timer).
 */
public final class RunningHold {

    /** Long enough for the usual block or routine to plan its queries, short next to a long-running one. */
    public static final Duration DEFAULT = Duration.ofSeconds(10);

    /** Schedules nothing: the statement keeps its permits until it ends. */
    private static final GatewayTimer NEVER = (task, delayNanos) -> () -> { };

    /** Until the statement ends, whatever its duration: for hooks built without a timer (tests of other things). */
    static final RunningHold UNTIL_END = new RunningHold(() -> DEFAULT, NEVER);

    /** Where a duration has no nanosecond count (beyond 292 years), it is as good as forever. */
    private static final Duration LONGEST = Duration.ofNanos(Long.MAX_VALUE);

    private final Supplier<Duration> hold;
    private final GatewayTimer timer;

    /**
     * @param hold read as each statement asks for admission, so that a reload changes it for statements
     *     from then on; {@link Duration#ZERO}: such statements are released like any other
     * @param timer runs the release once the hold has passed (the gateways' own timer)
     */
    public RunningHold(Supplier<Duration> hold, GatewayTimer timer) {
        this.hold = Objects.requireNonNull(hold, "hold");
        this.timer = Objects.requireNonNull(timer, "timer");
    }

    /** The gateways' timer: a statement that may degrade after waiting is looked at again on it. */
    GatewayTimer timer() {
        return timer;
    }

    /** The hold for a statement asking for admission now; zero when there is none (the file cannot say less). */
    Duration current() {
        Duration now = hold.get();
        return now.isNegative() ? Duration.ZERO : now;
    }

    /**
     * Releases {@code ticket} after {@code duration} unless cancelled first. The release runs on the timer's
     * thread; it is safe there because {@link Ticket#release()} takes the gateways' lock and is idempotent,
     * so the statement's own release, before or after, changes nothing more.
     */
    GatewayTimer.Cancellable releaseAfter(Ticket ticket, Duration duration) {
        return releaseAfter((Runnable) ticket::release, duration);
    }

    /** Runs {@code release} after {@code duration} unless cancelled first; it must be idempotent, as above. */
    GatewayTimer.Cancellable releaseAfter(Runnable release, Duration duration) {
        long nanos = duration.compareTo(LONGEST) >= 0 ? Long.MAX_VALUE : duration.toNanos();
        return timer.schedule(release, nanos);
    }
}
