package io.memogate.proxy.pg.session;

import io.memogate.proxy.admission.Admission;
import io.memogate.proxy.admission.WaitNotice;
import io.memogate.proxy.pg.message.backend.PgErrors;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The one statement of a session that waits for admission, if any: what a CancelRequest withdraws, and
 * the timer that tells the client, once, that it is queued. Used on the session's event loop only.
 */
final class AdmissionWait {

    /** {@link ServerResponses#clientMidMessage}: the client has part of a row, and the rest is to come. */
    private final BooleanSupplier clientMidMessage;
    private Admission admission;
    private ScheduledFuture<?> notice;

    AdmissionWait(BooleanSupplier clientMidMessage) {
        this.clientMidMessage = clientMidMessage;
    }

    /** Starts waiting; after {@code noticeAfter} (0: never) the client gets a NOTICE saying where. */
    void waitFor(Admission admission, Channel client, Duration noticeAfter) {
        this.admission = admission;
        long nanos = noticeAfter.toNanos();
        if (nanos > 0) {
            noticeIn(admission, client, nanos);
        }
    }

    private void noticeIn(Admission waited, Channel client, long nanos) {
        notice = client.eventLoop().schedule(() -> notice(waited, client, nanos), nanos, TimeUnit.NANOSECONDS);
    }

    /** The decision arrived (or the session ended): nothing waits any more. */
    void decided() {
        admission = null;
        if (notice != null) {
            notice.cancel(false);
            notice = null;
        }
    }

    /** Where the statement waits, in words ("statement queued for the LARGE gateway: ..."); empty when none does. */
    Optional<String> where() {
        return admission == null ? Optional.empty() : admission.waiting().map(WaitNotice::where);
    }

    /** Takes the statement out of its queue if it still waits; true when it did. */
    boolean withdraw() {
        return admission != null && admission.withdraw();
    }

    private void notice(Admission waited, Channel client, long nanos) {
        if (admission != waited || !client.isActive()) {
            return;
        }
        if (clientMidMessage.getAsBoolean()) {
            // An earlier statement's huge row is half relayed (a client pipelines): the NOTICE written now
            // would be read as part of the row. Looked at again a wait later, between messages.
            noticeIn(waited, client, nanos);
            return;
        }
        waited.waiting().ifPresent(why -> {
            ByteBuf out = client.alloc().buffer();
            PgErrors.waitingNotice(why).encode(out);
            client.writeAndFlush(out, client.voidPromise());
        });
    }
}
