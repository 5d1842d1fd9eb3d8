package io.memogate.broker.redis;

import io.memogate.broker.gateway.GatewayRejectedException;
import io.memogate.broker.gateway.Gateways;
import io.memogate.broker.gateway.GuardedListener;
import io.memogate.broker.gateway.Ticket;
import io.memogate.broker.gateway.Tier;
import io.memogate.broker.gateway.WaitingStatement;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * This instance's gated tickets, by ticket and by the id Redis knows them by, until each is decided and,
 * if admitted, released. It alone moves a {@link FleetTicket} out of WAITING, completes its future and tells
 * the listener; {@link RedisGateways} tells it what Redis said.
 */
final class IssuedTickets {

    private final Map<Ticket, FleetTicket> byTicket = new ConcurrentHashMap<>();
    private final Map<String, FleetTicket> byId = new ConcurrentHashMap<>();
    private final GuardedListener listener;
    private final LongSupplier nanoTime;

    IssuedTickets(GuardedListener listener, LongSupplier nanoTime) {
        this.listener = listener;
        this.nanoTime = nanoTime;
    }

    FleetTicket issue(Gateways issuer, String id, long estimateBytes, long connection, Object tag) {
        Ticket t = Ticket.issue(issuer, estimateBytes, connection, tag);
        t.needs(Tier.SMALL);
        FleetTicket ft = new FleetTicket(id, t, nanoTime.getAsLong());
        byTicket.put(t, ft);
        byId.put(id, ft);
        return ft;
    }

    /**
     * This instance's side of {@code t}; null for an ungated ticket or one already finished.
     *
     * @throws IllegalArgumentException for a gated ticket other gateways issued
     */
    FleetTicket of(Ticket t, Gateways issuer) {
        if (!t.gated()) {
            return null;
        }
        if (!t.issuedBy(issuer)) {
            throw new IllegalArgumentException(t + " was issued by other gateways");
        }
        return byTicket.get(t);
    }

    /** The tag of this instance's ticket {@code id}, null for another instance's. */
    Object tagOf(String id) {
        FleetTicket ft = byId.get(id);
        return ft == null ? null : ft.ticket.tag();
    }

    /** The tickets admitted and not yet released. */
    List<FleetTicket> admitted() {
        return byId.values().stream().filter(ft -> ft.state.get() == FleetTicket.State.ADMITTED).toList();
    }

    /**
     * An mg_poll answer's waiting tickets, each "id queue position": where they wait now. A waiting ticket
     * Redis acknowledged but no longer names was lost (a failover to a replica that missed it): nothing would
     * ever decide it, so it is refused with {@code lost}'s exception. The answer's decisions must have been
     * delivered first. Returns how many were lost.
     */
    int polled(List<String> waiting, boolean paused, Supplier<FleetUnavailableException> lost) {
        Set<String> named = new HashSet<>();
        for (String line : waiting) {
            String[] f = line.split(" ");
            named.add(f[0]);
            waitsAt(f[0], f[1], f[2], paused);
        }
        int count = 0;
        for (FleetTicket ft : byId.values()) {
            if (ft.acknowledged && ft.waiting() && !named.contains(ft.id)) {
                fail(ft, lost.get());
                count++;
            }
        }
        return count;
    }

    boolean anyWaiting() {
        return byId.values().stream().anyMatch(FleetTicket::waiting);
    }

    /**
     * Redis's decision, for a ticket still waiting here; {@code release} gives back a grant nobody will learn
     * of, its future having been completed from outside.
     */
    void deliver(Decision d, Consumer<Ticket> release) {
        FleetTicket ft = byId.get(d.id());
        if (ft == null) {
            return; // withdrawn here first: the withdrawal undid it in Redis
        }
        Ticket t = ft.ticket;
        switch (d) {
            case Decision.Granted granted -> {
                if (!ft.decide(FleetTicket.State.ADMITTED)) {
                    return;
                }
                t.needs(granted.highest());
                long waited = waitedNanos(ft);
                if (!t.admitted().complete(t)) {
                    release.accept(t);
                }
                listener.admitted(granted.highest(), waited, t.estimateBytes());
            }
            case Decision.Refused refused -> {
                if (!ft.decide(FleetTicket.State.DONE)) {
                    return;
                }
                forget(ft);
                long waited = waitedNanos(ft);
                GatewayRejectedException rejection = new GatewayRejectedException(refused.reason(), refused.tier(),
                        refused.budget(), Duration.ofNanos(waited), t.estimateBytes(), refused.paused());
                t.admitted().completeExceptionally(rejection);
                listener.rejected(rejection, waited);
            }
        }
    }

    /** True when this withdrew the waiting ticket; the caller then tells Redis. */
    boolean withdraw(FleetTicket ft) {
        if (!ft.decide(FleetTicket.State.DONE)) {
            return false;
        }
        forget(ft);
        ft.ticket.admitted().completeExceptionally(
                new CancellationException("withdrawn while waiting for the fleet's gateways"));
        return true;
    }

    /** True when this ended the admitted ticket; the caller then tells Redis. */
    boolean release(FleetTicket ft) {
        if (!ft.state.compareAndSet(FleetTicket.State.ADMITTED, FleetTicket.State.DONE)) {
            return false;
        }
        forget(ft);
        return true;
    }

    /** Refuses the waiting tickets, or (onlyKnown) those Redis had heard of, which a reap took. */
    void refuseWaiting(FleetUnavailableException why, boolean onlyKnown) {
        for (FleetTicket ft : byId.values()) {
            if ((!onlyKnown || ft.acknowledged) && ft.waiting()) {
                fail(ft, why);
            }
        }
    }

    void fail(FleetTicket ft, RuntimeException why) {
        if (ft.decide(FleetTicket.State.DONE)) {
            forget(ft);
            ft.ticket.admitted().completeExceptionally(why);
        }
    }

    /** Where ticket {@code id} waits, from an answer's "queue position" (queue 1..3 or b). */
    void waitsAt(String id, String queue, String position, boolean paused) {
        FleetTicket ft = byId.get(id);
        if (ft == null || !ft.waiting()) {
            return;
        }
        boolean budget = queue.equals("b");
        Ticket t = ft.ticket;
        ft.lastPosition = new WaitingStatement(budget ? null : Decision.tier(queue), budget,
                Integer.parseInt(position), t.estimateBytes(), t.connection(), Duration.ZERO, t.tag(), paused);
    }

    /** Where it waited at the last answer that said so, with its waiting time now; null once decided. */
    WaitingStatement position(FleetTicket ft, boolean paused) {
        WaitingStatement last = ft.lastPosition;
        if (last == null || !ft.waiting()) {
            return null;
        }
        return new WaitingStatement(last.tier(), last.forBudget(), last.position(), last.estimateBytes(),
                last.connection(), Duration.ofNanos(nanoTime.getAsLong() - ft.startNanos), last.tag(), paused);
    }

    private void forget(FleetTicket ft) {
        byId.remove(ft.id);
        byTicket.remove(ft.ticket);
    }

    /** Zero for a ticket decided by its own acquire's answer: it never waited. */
    private long waitedNanos(FleetTicket ft) {
        return ft.acknowledged ? nanoTime.getAsLong() - ft.startNanos : 0;
    }
}
