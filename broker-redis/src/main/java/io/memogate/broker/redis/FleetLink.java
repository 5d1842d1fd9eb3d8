package io.memogate.broker.redis;

import io.memogate.broker.gateway.Ticket;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An instance's contact with its fleet's Redis, for one server's gateways: it takes every answer (the
 * instance's decisions, and whether Redis lost the instance's state), notices a call Redis did not answer
 * and a silence longer than the lease, polls for decisions while statements wait, and asserts what the
 * instance holds again when Redis may have lost it. It alone decides whether the fleet's gateways or the
 * instance's {@link LocalShare} admit new statements ({@link #local()}).
 *
 * <p>Threads. Answers, polls and ticks run on the replies thread, in Redis's order; {@link #away} may be
 * called from any thread that saw a call fail; the flags are volatile so the gateways read them anywhere.
 */
final class FleetLink {

    private static final Logger log = LoggerFactory.getLogger(FleetLink.class);

    private final FleetSettings fleet;
    private final String server;
    private final FleetClient redis;
    private final IssuedTickets tickets;
    private final LocalShare share;
    private final Map<Long, Long> retainedBy;
    private final Consumer<Ticket> release;
    private final ScheduledExecutorService replies;
    private final LongSupplier nanoTime;
    private final FleetCalls calls;
    private final Holdings holdings;
    private final AtomicBoolean polling = new AtomicBoolean();
    private volatile long lastAnswerNanos;
    private volatile boolean cutOff;
    /** Redis did not answer the last call: new statements go to the share until it answers again. */
    private volatile boolean local;
    /** The fleet's pause, as the last poll found it. */
    private volatile boolean paused;

    /**
     * Starts from an answer just received (the instance's configuration).
     *
     * @param retainedBy the instance's record of what its server connections retain, asserted with its holdings
     * @param nextId a new ticket id, for a statement the share admits
     * @param release releases a ticket granted after its statement no longer wanted it
     */
    FleetLink(FleetSettings fleet, String server, FleetClient redis, IssuedTickets tickets, LocalShare share,
              Map<Long, Long> retainedBy, Supplier<String> nextId, Consumer<Ticket> release,
              ScheduledExecutorService replies, LongSupplier nanoTime) {
        this.fleet = fleet;
        this.server = server;
        this.redis = redis;
        this.tickets = tickets;
        this.share = share;
        this.retainedBy = retainedBy;
        this.release = release;
        this.replies = replies;
        this.nanoTime = nanoTime;
        this.calls = new FleetCalls(redis, this::handle, this::away);
        this.holdings = new Holdings(tickets, nextId, redis, calls, nanoTime);
        this.lastAnswerNanos = nanoTime.getAsLong();
    }

    /** The calls sent without waiting, whose answers come back here. */
    FleetCalls calls() {
        return calls;
    }

    /** What the instance holds, asserted again from here. */
    Holdings holdings() {
        return holdings;
    }

    boolean local() {
        return local;
    }

    boolean paused() {
        return paused;
    }

    /** An answer, on the replies thread: Redis is there, with this instance's decisions. */
    void handle(FleetReply reply) {
        lastAnswerNanos = nanoTime.getAsLong();
        cutOff = false;
        boolean reassert = false;
        if (local) {
            local = false;
            reassert = true;
            log.info("Fleet {}'s Redis at {} answers again: server {}'s statements are admitted by the fleet's"
                    + " gateways", fleet.name(), redis.where(), server);
        }
        if (reply.reaped()) {
            reassert = true;
            log.warn("Fleet {} reaped this instance's state for server {} (its lease ran out, or Redis restarted"
                    + " without it): its waiting statements are refused, what it holds is asserted again",
                    fleet.name(), server);
            calls.forget();
            tickets.refuseWaiting(new FleetUnavailableException("the fleet's Redis at " + redis.where()
                    + " lost this proxy's waiting statements (its lease ran out, or Redis restarted)"), true);
        }
        for (Decision d : reply.decisions()) {
            tickets.deliver(d, release);
        }
        if (reassert) {
            holdings.reassert(retainedBy);
        }
    }

    /** A call failed: until Redis answers again, new statements go to this instance's share. */
    void away(Throwable failure) {
        if (!local) {
            local = true;
            log.warn("Fleet {}'s Redis at {} did not answer ({}): server {}'s new statements are admitted by this"
                    + " instance's share of the gateways, limits and target / {}", fleet.name(), redis.where(),
                    FleetClient.asUnavailable(failure).getMessage(), server, share.instances());
        }
    }

    /** Every poll interval: a poll when statements wait or the lease is a third gone; the lease watched. */
    void tick() {
        long now = nanoTime.getAsLong();
        long sinceAnswer = now - lastAnswerNanos;
        if (sinceAnswer > fleet.lease().toNanos() && !cutOff) {
            cutOff = true;
            calls.forget(); // the fleet reaps all of it
            log.warn("No answer from fleet {}'s Redis at {} for longer than the lease ({}): its waiting statements"
                    + " for server {} are refused", fleet.name(), redis.where(), fleet.lease(), server);
            tickets.refuseWaiting(new FleetUnavailableException("the fleet's Redis at " + redis.where()
                    + " has not answered for longer than the lease (" + fleet.lease() + ")"), false);
        }
        if (tickets.anyWaiting() || calls.anyUnconfirmed() || sinceAnswer >= fleet.lease().toNanos() / 3) {
            poll();
        }
        // A failover may lose writes but not this instance's lease: holdings are asserted as often as it renews.
        if (!local && holdings.due(now, fleet.lease().toNanos() / 3)) {
            holdings.reassert(retainedBy);
        }
    }

    /** Woken by pub/sub, on a Lettuce thread: ask on the replies thread, unless the instance is closing. */
    void pollSoon() {
        try {
            replies.execute(this::poll);
        } catch (RejectedExecutionException closing) {
            // Nothing to ask for: closing refuses the waiters.
        }
    }

    private void poll() {
        if (!polling.compareAndSet(false, true)) {
            return;
        }
        redis.call((reply, failure) -> {
            polling.set(false);
            if (failure != null) {
                away(failure);
                return;
            }
            handle(reply);
            List<String> lines = reply.lines();
            paused = lines.getFirst().equals("1");
            share.instances(Integer.parseInt(lines.get(1)));
            int lost = tickets.polled(lines.subList(2, lines.size()), paused, () -> new FleetUnavailableException(
                    "the fleet's Redis at " + redis.where() + " no longer knows this waiting statement (a failover"
                    + " to a replica that missed it)"));
            if (lost > 0) {
                log.warn("Fleet {}'s Redis lost {} of this instance's waiting statements for server {}: they are"
                        + " refused", fleet.name(), lost, server);
            }
            calls.resend();
        }, "mg_poll");
    }
}
