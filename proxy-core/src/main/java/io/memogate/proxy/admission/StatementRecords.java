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
import java.util.function.LongSupplier;

/**
 * The last statements one server's admission decided about, oldest first, for tests that assert which tier
 * their application's statements need ({@link StatementRecord}). Off unless asked for (a capacity of 0):
 * a proxy in production keeps nothing and pays one comparison per statement.
 *
 * <p>Bounded: past its capacity the oldest record goes, and {@link #dropped()} counts it. Thread-safe:
 * records arrive from sessions' event loops and from the gateways' deciding threads (a release, the timer);
 * one lock, held only to add, copy or clear.
 */
public final class StatementRecords {

    private final String server;
    private final int capacity;
    private final LongSupplier nanoTime;
    private final ArrayDeque<StatementRecord> records = new ArrayDeque<>();
    private long dropped;

    /**
     * @param capacity how many records to keep; 0 keeps none
     * @param nanoTime the clock a wait is measured with
     */
    public StatementRecords(String server, int capacity, LongSupplier nanoTime) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must be at least 0, was " + capacity);
        }
        this.server = Objects.requireNonNull(server, "server");
        this.capacity = capacity;
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
    }

    /** Records nothing. */
    public static StatementRecords off(String server) {
        return new StatementRecords(server, 0, System::nanoTime);
    }

    public boolean enabled() {
        return capacity > 0;
    }

    public String server() {
        return server;
    }

    /** The records kept, oldest first: a copy, which later statements do not change. */
    public synchronized List<StatementRecord> snapshot() {
        return List.copyOf(records);
    }

    /** How many records were pushed out by newer ones since the start or the last {@link #clear()}. */
    public synchronized long dropped() {
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
        return new RecordedAdmission(gated, gated.decision().whenComplete((statement, failure) -> add(
                outcome(admitted, request, estimate, atOnce ? Optional.empty()
                        : Optional.of(Duration.ofNanos(nanoTime.getAsLong() - start))))));
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
        if (records.size() == capacity) {
            records.removeFirst();
            dropped++;
        }
        records.addLast(record);
    }
}
