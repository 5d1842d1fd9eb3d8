package io.memogate.proxy.admission;

import io.memogate.broker.gateway.GatewayRejectedException;
import io.memogate.broker.gateway.Ticket;
import io.memogate.broker.gateway.Tier;
import io.memogate.estimator.CompileEstimate;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * The last statements one server's admission decided about, oldest first, for tests that assert which tier
 * their application's statements need ({@link StatementRecord}) and for the console's SHOW STATEMENTS. Off
 * unless asked for (a capacity of 0, {@code admission.statementRecords}'s default): a proxy in production
 * keeps nothing and pays one read of the setting per statement.
 *
 * <p>Bounded: past its capacity the oldest record goes, and {@link #dropped()} counts it. The capacity is read
 * as each statement is recorded and as the records are read, so a reload that lowers it forgets the oldest at
 * once. Each record is numbered from 1 in the order it was added, numbers never reused (not even after
 * {@link #clear()}): a reader that remembers the last number it saw can tell later records from earlier ones.
 *
 * <p>Thread-safe: records arrive from sessions' event loops and from the gateways' deciding threads (a release,
 * the timer); one lock, held only to add, copy or clear.
 */
public final class StatementRecords {

    private final String server;
    private final IntSupplier capacity;
    private final LongSupplier nanoTime;
    private final ArrayDeque<StatementRecord> records = new ArrayDeque<>();
    /** Records added since the start: the number of the newest. */
    private long added;
    private long dropped;

    /**
     * @param capacity how many records to keep, read at each record and each read; 0 keeps none
     * @param nanoTime the clock a wait is measured with
     */
    public StatementRecords(String server, IntSupplier capacity, LongSupplier nanoTime) {
        this.server = Objects.requireNonNull(server, "server");
        this.capacity = Objects.requireNonNull(capacity, "capacity");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
    }

    /** Keeps the last {@code capacity} records. */
    public StatementRecords(String server, int capacity, LongSupplier nanoTime) {
        this(server, fixed(capacity), nanoTime);
    }

    private static IntSupplier fixed(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must be at least 0, was " + capacity);
        }
        return () -> capacity;
    }

    /** Records nothing. */
    public static StatementRecords off(String server) {
        return new StatementRecords(server, 0, System::nanoTime);
    }

    public boolean enabled() {
        return capacity.getAsInt() > 0;
    }

    public String server() {
        return server;
    }

    /** The records kept, oldest first: a copy, which later statements do not change. */
    public List<StatementRecord> snapshot() {
        return window().records();
    }

    /**
     * The records kept, oldest first, with the number of the first and how many went before them: one
     * consistent copy.
     */
    public synchronized Window window() {
        trim(capacity.getAsInt());
        return new Window(List.copyOf(records), added - records.size() + 1, dropped);
    }

    /**
     * Records as one read saw them.
     *
     * @param records oldest first
     * @param firstNumber the number of the first record (of the next to be added, when there is none)
     * @param dropped how many records were pushed out by newer ones, or by a lower capacity, since the start or
     *     the last {@link #clear()}
     */
    public record Window(List<StatementRecord> records, long firstNumber, long dropped) {

        public Window {
            records = List.copyOf(records);
        }
    }

    /**
     * How many records were pushed out by newer ones, or by a lower capacity, since the start or the last
     * {@link #clear()}.
     */
    public synchronized long dropped() {
        trim(capacity.getAsInt());
        return dropped;
    }

    /** Forgets every record: a test starts from here. */
    public synchronized void clear() {
        records.clear();
        dropped = 0;
    }

    /** A statement admitted without a gateway: bypassed, or below t0. */
    void passed(StatementRequest request, CompileEstimate estimate, StatementRecord.Outcome outcome) {
        if (enabled()) {
            add(record(request, estimate, outcome, null, Optional.empty(), Optional.empty()));
        }
    }

    /**
     * {@code gated} as the session is to see it: its decision completes only once the record of how it went is
     * added, so a client that got its answer finds its statement recorded.
     */
    Admission watch(Admission gated, Ticket ticket, StatementRequest request, CompileEstimate estimate) {
        if (!enabled()) {
            return gated;
        }
        CompletableFuture<Ticket> admitted = ticket.admitted();
        boolean atOnce = admitted.isDone();
        long start = nanoTime.getAsLong();
        return new RecordedAdmission(gated, gated.decision().whenComplete((statement, failure) -> {
            if (gated.degraded().isEmpty()) { // one degraded after waiting is recorded by its degraded admission
                add(outcome(admitted, request, estimate, atOnce ? Optional.empty()
                        : Optional.of(Duration.ofNanos(nanoTime.getAsLong() - start))));
            }
        }));
    }

    /** Read once the ticket's decision is made, which the gated admission's decision follows. */
    private StatementRecord outcome(CompletableFuture<Ticket> admitted, StatementRequest request,
            CompileEstimate estimate, Optional<Duration> queued) {
        return switch (admitted.state()) {
            case SUCCESS -> record(request, estimate, StatementRecord.Outcome.ADMITTED,
                    admitted.resultNow().highestTier().orElse(null), queued, Optional.empty());
            case FAILED -> {
                Throwable cause = admitted.exceptionNow();
                cause = cause instanceof CompletionException wrapped ? wrapped.getCause() : cause;
                if (cause instanceof GatewayRejectedException rejection) {
                    Optional<Duration> waited = rejection.waited().isZero() ? Optional.empty()
                            : Optional.of(rejection.waited());
                    yield record(request, estimate, StatementRecord.Outcome.REFUSED, rejection.tier(), waited,
                            Optional.of(StatementRecord.Refusal.of(rejection)));
                }
                yield record(request, estimate, StatementRecord.Outcome.WITHDRAWN, null, queued, Optional.empty());
            }
            case CANCELLED, RUNNING -> record(request, estimate, StatementRecord.Outcome.WITHDRAWN, null, queued,
                    Optional.empty());
        };
    }

    private StatementRecord record(StatementRequest request, CompileEstimate estimate, StatementRecord.Outcome outcome,
            Tier tierOrNull, Optional<Duration> queued,
            Optional<StatementRecord.Refusal> refusal) {
        SessionInfo session = request.session();
        return new StatementRecord(server, session.database(), session.user(), estimate, outcome,
                Optional.ofNullable(tierOrNull), queued, refusal);
    }

    private synchronized void add(StatementRecord record) {
        int keep = capacity.getAsInt();
        if (keep == 0) {
            trim(0); // turned off while the statement was deciding: it is not kept, and neither are the older
            return;
        }
        trim(keep - 1);
        records.addLast(record);
        added++;
    }

    /** Forgets the oldest records beyond {@code keep}. */
    private void trim(int keep) {
        while (records.size() > keep) {
            records.removeFirst();
            dropped++;
        }
    }
}
