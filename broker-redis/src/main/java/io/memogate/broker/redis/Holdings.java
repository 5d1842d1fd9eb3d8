package io.memogate.broker.redis;

import io.memogate.broker.gateway.Gateways;
import io.memogate.broker.gateway.Ticket;
import io.memogate.broker.gateway.Tier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What this instance holds, for asserting it again in Redis (mg_assert) when Redis may have lost it: after
 * Redis restarted empty, after a failover to a replica that missed the latest writes, after the fleet reaped
 * this instance's lease while it was cut off, and for the statements this instance's share admitted while
 * Redis was away. Keyed by ticket id, so that asserting twice changes nothing.
 *
 * <p>An assertion is built and sent, and a held ticket is ended here and its release sent, each in one step
 * under one lock ({@link #order}): Redis runs the calls of the connection in the order they were sent, so an
 * assertion that names a ticket reaches Redis before that ticket's release, and one sent after the release does
 * not name it. Built and sent apart, a release could overtake the assertion naming its ticket, and Redis would
 * count again, beyond the tiers' limits, a statement that had finished.
 */
final class Holdings {

    private static final Logger log = LoggerFactory.getLogger(Holdings.class);

    private final IssuedTickets tickets;
    private final Supplier<String> nextId;
    private final FleetClient redis;
    private final FleetCalls calls;
    private final LongSupplier nanoTime;
    private final AtomicBoolean asserting = new AtomicBoolean();
    /** Held while an assertion or a release is decided and sent. */
    private final Object order = new Object();
    private volatile long lastNanos;
    private final AtomicLong answered = new AtomicLong();
    /** The statements the share admits or holds waiting, by the ticket their sessions have. */
    private final Map<Ticket, Shared> shared = new ConcurrentHashMap<>();

    /**
     * @param nextId a new ticket id, for a statement the share admitted
     * @param calls where the assertions' answers go, and releases are sent
     */
    Holdings(IssuedTickets tickets, Supplier<String> nextId, FleetClient redis, FleetCalls calls,
             LongSupplier nanoTime) {
        this.tickets = tickets;
        this.nextId = nextId;
        this.redis = redis;
        this.calls = calls;
        this.nanoTime = nanoTime;
    }

    /**
     * Asserts again in Redis what this instance holds and what its connections retain; one assertion at a
     * time, on the replies thread.
     */
    void reassert(Map<Long, Long> retainedBy) {
        if (!asserting.compareAndSet(false, true)) {
            return;
        }
        lastNanos = nanoTime.getAsLong();
        synchronized (order) {
            Assertion sent = assertion(retainedBy);
            redis.call((reply, failure) -> {
                asserting.set(false);
                calls.answer(reply, failure);
                answered.incrementAndGet();
                if (failure == null && !reply.text().equals("0")) {
                    log.info("The fleet's Redis at {} counts again {} of the {} statements this instance holds",
                            redis.where(), reply.text(), sent.tickets());
                }
            }, "mg_assert", sent.args());
        }
    }

    /**
     * Ends the admitted ticket here and sends its release ({@code then} gets the answer); false when it was not
     * admitted, or already ended.
     */
    boolean release(FleetTicket ft, BiConsumer<FleetReply, Throwable> then) {
        synchronized (order) {
            if (!tickets.release(ft)) {
                return false;
            }
            redis.call(then, "mg_release", ft.id);
            return true;
        }
    }

    /** How many assertions Redis answered or failed, for tests that wait for the next. */
    long assertions() {
        return answered.get();
    }

    /** True when something is held and the last assertion is at least {@code everyNanos} old. */
    boolean due(long nowNanos, long everyNanos) {
        return nowNanos - lastNanos >= everyNanos && any();
    }

    /**
     * Asks the share ({@code share}, while Redis is away) to admit a statement. A gated one gets a ticket of
     * {@code issuer}'s over the share's own, so that its release comes back here and reaches Redis once the
     * statement was asserted there.
     */
    Ticket admitByShare(Gateways issuer, Gateways share, long estimateBytes, Tier atLeast, long connection,
                        Object tag) {
        Ticket inner = atLeast == null ? share.acquire(estimateBytes, connection, tag)
                : share.acquire(estimateBytes, atLeast, connection, tag);
        if (!inner.gated()) {
            return inner;
        }
        Ticket outer = Ticket.issue(issuer, estimateBytes, connection, tag);
        inner.highestTier().ifPresent(outer::needs);
        shared.put(outer, new Shared(inner));
        inner.admitted().whenComplete((admitted, refused) -> {
            inner.highestTier().ifPresent(outer::needs);
            if (refused != null) {
                shared.remove(outer);
                outer.admitted().completeExceptionally(refused);
            } else {
                outer.admitted().complete(outer);
            }
        });
        return outer;
    }

    /** The share's own ticket under {@code outer}; null when the share did not issue it. */
    Ticket shareTicket(Ticket outer) {
        Shared s = shared.get(outer);
        return s == null ? null : s.inner;
    }

    /**
     * Releases a statement of the share there, and in Redis once it was asserted there; false when {@code
     * outer} is not the share's.
     */
    boolean releaseShared(Ticket outer, Gateways share) {
        Shared s;
        synchronized (order) {
            s = shared.remove(outer);
            if (s != null && s.id != null) {
                calls.sendConfirmed("mg_release", s.id);
            }
        }
        if (s == null) {
            return false;
        }
        share.release(s.inner);
        return true;
    }

    private boolean any() {
        return !shared.isEmpty() || !tickets.admitted().isEmpty();
    }

    /** mg_assert's arguments: the tickets held now, then what their connections retain; under {@link #order}. */
    private Assertion assertion(Map<Long, Long> retainedBy) {
        List<String> args = new ArrayList<>(List.of(""));
        for (FleetTicket ft : tickets.admitted()) {
            add(args, ft.id, ft.ticket);
        }
        for (Map.Entry<Ticket, Shared> e : shared.entrySet()) {
            Ticket outer = e.getKey();
            Shared s = e.getValue();
            if (outer.admitted().isDone() && !outer.admitted().isCompletedExceptionally()) {
                if (s.id == null) {
                    s.id = nextId.get();
                }
                add(args, s.id, s.inner);
            }
        }
        int count = (args.size() - 1) / 4;
        args.set(0, Integer.toString(count));
        retainedBy.forEach((connection, bytes) -> {
            args.add(Long.toString(connection));
            args.add(Long.toString(bytes));
        });
        return new Assertion(args.toArray(String[]::new), count);
    }

    /** A ticket as mg_assert reads it: id, estimate, connection, tiers held. */
    private static void add(List<String> args, String id, Ticket t) {
        args.add(id);
        args.add(Long.toString(t.estimateBytes()));
        args.add(Long.toString(t.connection()));
        args.add(Integer.toString(t.highestTier().orElseThrow().ordinal() + 1));
    }

    /** A statement of the share: the share's ticket, and its id in Redis once asserted there. */
    private static final class Shared {
        final Ticket inner;
        /** Under {@link #order}. */
        String id;

        Shared(Ticket inner) {
            this.inner = inner;
        }
    }

    /** One mg_assert call: its arguments and how many tickets it asserted. */
    record Assertion(String[] args, int tickets) {
    }
}
