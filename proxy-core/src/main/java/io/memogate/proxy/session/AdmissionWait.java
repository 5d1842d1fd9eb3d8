package io.memogate.proxy.session;

import io.memogate.proxy.admission.Admission;
import io.memogate.proxy.admission.WaitNotice;
import io.netty.channel.Channel;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The one statement of a session that waits for admission, if any: what a cancel withdraws, and the timer
 * that tells the client, once, that it is queued. Used on the session's event loop only.
 */
final class AdmissionWait {

    private final Channel client;
    private final StatementAdmission.Notices notices;
    private Admission admission;
    private ScheduledFuture<?> notice;
    /** A cancel came after the grant, before the decision reached this loop: the statement is not sent. */
    private boolean cancelledAfterGrant;

    AdmissionWait(Channel client, StatementAdmission.Notices notices) {
        this.client = client;
        this.notices = notices;
    }

    /** Starts waiting; after {@code noticeAfter} (0: never) the client is told where. */
    void waitFor(Admission admission, Duration noticeAfter) {
        this.admission = admission;
        long nanos = noticeAfter.toNanos();
        if (nanos > 0) {
            noticeIn(admission, nanos);
        }
    }

    private void noticeIn(Admission waited, long nanos) {
        notice = client.eventLoop().schedule(() -> notice(waited, nanos), nanos, TimeUnit.NANOSECONDS);
    }

    /**
     * The decision arrived (or the session ended): nothing waits any more. True when a cancel came after the
     * statement was admitted but before the decision reached this loop: it is then answered as cancelled.
     */
    boolean decided() {
        boolean cancelled = cancelledAfterGrant;
        admission = null;
        cancelledAfterGrant = false;
        if (notice != null) {
            notice.cancel(false);
            notice = null;
        }
        return cancelled;
    }

    /** Where the statement waits, in words ("statement queued for the LARGE gateway: ..."); empty when none does. */
    Optional<String> where() {
        return admission == null ? Optional.empty() : admission.waiting().map(WaitNotice::where);
    }

    /**
     * Takes the statement out of its queue if it still waits; true when it did. Admitted, with the decision
     * still on its way to this loop (from the gateways' thread, or from Redis), the statement has not reached
     * the server, which would ignore a cancel sent now: it is kept from the server instead, and true.
     */
    boolean withdraw() {
        if (admission == null) {
            return false;
        }
        if (admission.withdraw()) {
            return true;
        }
        if (admission.decision() instanceof CompletableFuture<?> decision && decision.isDone()
                && !decision.isCompletedExceptionally()) {
            cancelledAfterGrant = true;
            return true;
        }
        return false;
    }

    private void notice(Admission waited, long nanos) {
        if (admission != waited || !client.isActive()) {
            return;
        }
        if (!notices.betweenMessages()) {
            // An earlier statement's huge row is half relayed (a client pipelines): a notice written now
            // would be read as part of the row. Looked at again a wait later, between messages.
            noticeIn(waited, nanos);
            return;
        }
        waited.waiting().ifPresent(notices::send);
    }
}
