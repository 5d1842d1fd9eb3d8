package io.memogate.broker.redis;

import io.memogate.broker.gateway.Ticket;
import io.memogate.broker.gateway.WaitingStatement;
import java.util.concurrent.atomic.AtomicReference;

/**
 * This instance's side of a gated ticket kept in Redis. Its state leaves WAITING once, by compare-and-set:
 * whichever comes first of a grant or refusal from Redis, a withdraw() or a lost lease decides it, and the
 * loser does nothing (a withdraw() that wins also undoes in Redis a grant not yet delivered).
 */
final class FleetTicket {

    enum State { WAITING, ADMITTED, DONE }

    final String id;
    final Ticket ticket;
    final long startNanos;
    final AtomicReference<State> state = new AtomicReference<>(State.WAITING);
    /**
     * Redis answered its acquire: from then on it is in Redis's state, and a lost lease took it. Set on the
     * replies thread, after that answer's decisions were delivered.
     */
    volatile boolean acknowledged;
    /** Where it waited at the last answer that said so; null before any did. */
    volatile WaitingStatement lastPosition;

    FleetTicket(String id, Ticket ticket, long startNanos) {
        this.id = id;
        this.ticket = ticket;
        this.startNanos = startNanos;
    }

    boolean waiting() {
        return state.get() == State.WAITING;
    }

    /** True when this call took it out of WAITING into {@code next}. */
    boolean decide(State next) {
        return state.compareAndSet(State.WAITING, next);
    }
}
