package io.memogate.broker.redis;

import io.memogate.broker.BrokerLeadership;
import io.memogate.broker.FleetInstance;
import io.memogate.broker.FleetMember;
import io.memogate.broker.gateway.CompileMemoryRetention;
import io.memogate.broker.gateway.GatewayListener;
import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.GatewayTimer;
import io.memogate.broker.gateway.Gateways;
import io.memogate.broker.gateway.GuardedListener;
import io.memogate.broker.gateway.LedgerState;
import io.memogate.broker.gateway.Ticket;
import io.memogate.broker.gateway.Tier;
import io.memogate.broker.gateway.TierState;
import io.memogate.broker.gateway.WaitingStatement;
import java.time.Duration;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateways of one server shared by every proxy of a fleet: {@link io.memogate.broker.gateway.LocalGateways}'
 * algorithm, its state in Redis, each transition one Redis Function (gateways.lua), so that the tier limits,
 * the thresholds and the byte budget hold for the fleet as one proxy's hold for it.
 *
 * <p>A statement below t0 passes here, with no round trip. Any other is a {@link Ticket} whose acquire is
 * sent at once and answered later: nothing blocks. Redis decides every ticket once (FIFO, with its own clock
 * for timeouts) and puts the decision on the issuing instance's list; the instance takes its decisions with
 * the answer to any of its calls, and is woken by pub/sub to ask when another instance's call decided one.
 * Since pub/sub may lose a message, an instance with waiters also polls, every {@link
 * FleetSettings#pollInterval()}.
 *
 * <p>Leases. Every call renews the caller's lease, and an idle instance calls every third of it. Every call
 * first reaps the permits, waiters and ledger rows of instances whose lease ran out: a proxy killed while it
 * holds permits gives them back within the lease. An instance that has not heard from Redis for longer than
 * its lease refuses its waiters ({@link FleetUnavailableException}), since the fleet has reaped them; one
 * told by Redis that it was reaped does the same.
 *
 * <p>Redis away. {@link FleetLink} takes every answer and notices every call that got none. From a call Redis
 * did not answer until one it answers, new statements are admitted by this instance's {@link LocalShare}
 * (limits and target / N, N the live instances Redis last counted), and the views show that share. When Redis answers again, or says it lost this instance's state, {@link Holdings}
 * asserts again what the instance holds, the share's statements included, as it does every third of a lease.
 *
 * <p>Concurrency. {@link IssuedTickets} decides each gated ticket once: a grant or refusal from Redis, a
 * withdraw(), or a lost lease, whichever comes first. A withdraw() that wins tells Redis, which withdraws the
 * ticket or undoes a grant made meanwhile; so a grant and a withdrawal never both take effect. Answers are
 * handled on one thread, in Redis's order, and futures complete there; the fleet's views wait for Redis, at
 * most the command timeout per round trip, and throw {@link FleetUnavailableException} when it does not answer.
 */
public final class RedisGateways implements Gateways, FleetMember, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RedisGateways.class);
    private static final Duration LONGEST_COMMAND = Duration.ofSeconds(2);

    private final String server;
    private final String instance;
    private final FleetSettings fleet;
    private final GuardedListener listener;
    private final CompileMemoryRetention retention;
    private final ScheduledExecutorService replies;
    private final FleetClient redis;
    private final IssuedTickets tickets;
    /** In force while {@link #local}: this instance's share of the limits and target. */
    private final LocalShare share;
    private final AtomicLong sequence = new AtomicLong();
    /** Whether Redis answers, and what comes back from it; whether {@link #share} is in force. */
    private final FleetLink link;
    private final FleetCalls calls;
    private final Holdings holdings;
    /** Server connection to what the ledger counts it as retaining, as last heard; see {@link #retainedBy}. */
    private final Map<Long, Long> retainedBy = new ConcurrentHashMap<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile GatewaySettings settings;
    private volatile long target;

    /**
     * Joins the fleet: loads the gateway functions and writes {@code settings} and {@code targetBytes} as the
     * fleet's (the last instance to start or reload sets them for all).
     *
     * @param server the backend's name: the fleet shares one set of gateways per server
     * @throws io.lettuce.core.RedisException when Redis cannot be reached
     */
    public RedisGateways(FleetSettings fleet, String server, GatewaySettings settings, long targetBytes,
                         GatewayTimer timer, GatewayListener listener, CompileMemoryRetention retention) {
        this(fleet, server, settings, targetBytes, timer, listener, retention, System::nanoTime);
    }

    /** @param timer runs the timeouts of the share kept for while Redis is away */
    RedisGateways(FleetSettings fleet, String server, GatewaySettings settings, long targetBytes, GatewayTimer timer,
                  GatewayListener listener, CompileMemoryRetention retention, LongSupplier nanoTime) {
        this.fleet = Objects.requireNonNull(fleet, "fleet");
        this.server = Objects.requireNonNull(server, "server");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.listener = new GuardedListener(listener);
        this.tickets = new IssuedTickets(this.listener, nanoTime);
        this.share = new LocalShare(settings, targetBytes, nanoTime, timer, listener, retention);
        this.retention = Objects.requireNonNull(retention, "retention");
        checkTarget(targetBytes);
        this.target = targetBytes;
        this.instance = ProcessHandle.current().pid() + "-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
        this.replies = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "memogate-fleet-" + server);
            thread.setDaemon(true);
            return thread;
        });
        Duration timeout = Collections.min(List.of(fleet.lease().dividedBy(2), LONGEST_COMMAND));
        FleetClient client = null;
        try {
            client = new FleetClient(fleet, server, instance, timeout, replies, this::configuration);
            client.callAndWait("mg_configure", configuration());
        } catch (RuntimeException e) {
            replies.shutdownNow();
            if (client != null) {
                client.close();
            }
            throw e;
        }
        this.redis = client;
        this.link = new FleetLink(fleet, server, redis, tickets, share, retainedBy, this::nextId, this::release,
                replies, nanoTime);
        this.calls = link.calls();
        this.holdings = link.holdings();
        redis.onWake(link::pollSoon);
        long every = fleet.pollInterval().toNanos();
        replies.scheduleWithFixedDelay(link::tick, every, every, TimeUnit.NANOSECONDS);
        log.info("Gateways of server {} shared through fleet {} at {} as instance {}", server, fleet.name(),
                redis.where(), instance);
    }

    @Override
    public Ticket acquire(long estimateBytes, long connection, Object tag) {
        return acquire(estimateBytes, null, connection, tag);
    }

    /** The floor is kept fleet-wide: Redis takes every tier up to {@code atLeast} before the bytes decide. */
    @Override
    public Ticket acquire(long estimateBytes, Tier atLeast, long connection, Object tag) {
        if (estimateBytes < 0) {
            throw new IllegalArgumentException("estimateBytes must be >= 0, was " + estimateBytes);
        }
        if (link.local()) {
            return holdings.admitByShare(this, share.gateways(), estimateBytes, atLeast, connection, tag);
        }
        int floorTiers = atLeast == null ? 0 : atLeast.ordinal() + 1;
        if (floorTiers == 0 && estimateBytes < settings.staticThresholdBytes()) {
            Ticket t = Ticket.ungated(estimateBytes, connection, tag);
            listener.admitted(null, 0, estimateBytes);
            return t;
        }
        FleetTicket ft = tickets.issue(this, nextId(), estimateBytes, connection, tag);
        redis.call((reply, failure) -> {
            if (failure != null) {
                // It may have arrived before the answer was lost: whatever Redis has of it is undone.
                calls.later("mg_withdraw", ft.id);
                tickets.fail(ft, FleetClient.asUnavailable(failure));
                link.away(failure);
                return;
            }
            link.handle(reply);
            ft.acknowledged = true;
            if (!reply.text().isEmpty()) {
                String[] where = reply.text().split(" ");
                tickets.waitsAt(ft.id, where[0], where[1], link.paused());
            }
        }, "mg_acquire", ft.id, Long.toString(estimateBytes), Long.toString(connection), Integer.toString(floorTiers));
        return ft.ticket;
    }

    @Override
    public void release(Ticket t) {
        if (holdings.releaseShared(t, share.gateways())) {
            return;
        }
        FleetTicket ft = tickets.of(t, this);
        if (ft == null || ft.waiting() && withdraw(t)) {
            return;
        }
        holdings.release(ft, (reply, failure) -> {
            if (failure != null) {
                calls.later("mg_release", ft.id);
                link.away(failure);
                return;
            }
            link.handle(reply);
            if (!reply.text().isEmpty()) {
                retainedBy.put(t.connection(), Long.parseLong(reply.text()));
            }
        });
    }

    @Override
    public boolean withdraw(Ticket t) {
        Ticket shared = holdings.shareTicket(t);
        if (shared != null) {
            return share.gateways().withdraw(shared); // a withdrawn one leaves the holdings as it is refused
        }
        FleetTicket ft = tickets.of(t, this);
        if (ft == null || !tickets.withdraw(ft)) {
            return false;
        }
        calls.sendConfirmed("mg_withdraw", ft.id);
        return true;
    }

    /** Where it waited at the last answer that said so (at most a poll interval ago), with its waiting time now. */
    @Override
    public Optional<WaitingStatement> position(Ticket t) {
        Ticket shared = holdings.shareTicket(t);
        if (shared != null) {
            return share.gateways().position(shared);
        }
        FleetTicket ft = tickets.of(t, this);
        return ft == null ? Optional.empty() : Optional.ofNullable(tickets.position(ft, link.paused()));
    }

    @Override
    public void reconfigure(GatewaySettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
        share.settings(settings);
        calls.sendConfirmed("mg_configure", configuration());
    }

    @Override
    public GatewaySettings settings() {
        return settings;
    }

    @Override
    public boolean pause() {
        boolean here = share.gateways().pause(); // kept in step, for when Redis is away
        return link.local() ? here : ask("mg_pause", "1").text().equals("1");
    }

    @Override
    public boolean resume() {
        boolean here = share.gateways().resume();
        return link.local() ? here : ask("mg_pause", "0").text().equals("1");
    }

    @Override
    public boolean paused() {
        return link.local() ? share.gateways().paused() : view().paused();
    }

    /** A later target, from this instance's broker or another's, replaces it: not sent again when lost. */
    @Override
    public void target(long bytes) {
        checkTarget(bytes);
        target = bytes;
        share.target(bytes);
        calls.send("mg_target", Long.toString(bytes));
    }

    /** The fleet's target, which the last instance to set one set; this instance's share while Redis is away. */
    @Override
    public long target() {
        return link.local() ? share.gateways().target() : view().target();
    }

    /** The next measurement replaces it: not sent again when lost. */
    @Override
    public void retained(long connection, long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("retained bytes must be >= 0, was " + bytes);
        }
        retainedBy.put(connection, bytes);
        share.gateways().retained(connection, bytes);
        calls.send("mg_retained", Long.toString(connection), Long.toString(bytes));
    }

    @Override
    public void connectionClosed(long connection) {
        retainedBy.remove(connection);
        share.gateways().connectionClosed(connection);
        calls.sendConfirmed("mg_closed", Long.toString(connection));
    }

    /**
     * What the fleet's ledger counted the connection as retaining when this instance last released a
     * statement on it or measured it: a session asks as it goes idle, on its event loop, which must not wait
     * for Redis.
     */
    @Override
    public long retainedBy(long connection) {
        return link.local() ? share.gateways().retainedBy(connection) : retainedBy.getOrDefault(connection, 0L);
    }

    @Override
    public TierState state(Tier tier) {
        return link.local() ? share.gateways().state(tier) : view().tier(Objects.requireNonNull(tier, "tier"));
    }

    @Override
    public LedgerState ledger() {
        return link.local() ? share.gateways().ledger() : view().ledger();
    }

    /**
     * Every instance's waiting statements, the tag known for this instance's only; while Redis is away, this
     * instance's own.
     */
    @Override
    public List<WaitingStatement> waiting() {
        return link.local() ? share.gateways().waiting() : view().waiting(tickets::tagOf);
    }

    @Override
    public boolean local() {
        return link.local();
    }

    @Override
    public String fleetName() {
        return fleet.name();
    }

    @Override
    public String instance() {
        return instance;
    }

    @Override
    public List<FleetInstance> instances() {
        return FleetView.instances(ask("mg_holders").lines(), instance);
    }

    @Override
    public BrokerLeadership brokerLeadership(Duration brokerInterval) {
        return new RedisBrokerLeadership(redis, instance, Collections.max(List.of(fleet.lease(),
                brokerInterval.multipliedBy(3))));
    }

    @Override
    public int fleetSize() {
        return share.instances();
    }

    /** Leaves the fleet: what this instance holds goes back at once, its waiters are refused. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            redis.callAndWait("mg_leave");
        } catch (FleetUnavailableException e) {
            log.warn("Could not leave fleet {} cleanly: {}; the fleet reaps what this instance holds once its"
                    + " lease of {} runs out", fleet.name(), e.getMessage(), fleet.lease());
        } finally {
            replies.shutdownNow();
            tickets.refuseWaiting(new FleetUnavailableException("the proxy is stopping"), false);
            redis.close();
        }
    }

    /** Stops every call and the lease renewal without leaving, as a SIGKILL does; for tests. */
    void abandon() {
        closed.set(true);
        replies.shutdownNow();
        redis.close();
    }

    /** Assertions of what this instance holds made so far: each a third of a lease apart while it holds any. */
    long assertions() {
        return holdings.assertions();
    }

    /** Calls a quiet function and waits, for the views and the console: the answer brings no decisions. */
    private FleetReply ask(String function, String... args) {
        return redis.callAndWait(link::handle, function, args);
    }

    private FleetView view() {
        return FleetView.parse(ask("mg_view").lines());
    }

    /** mg_configure's arguments as they are now: the settings, the retention, the target. */
    private String[] configuration() {
        return FleetClient.configuration(settings, retention, target);
    }

    private String nextId() {
        return instance + ":" + sequence.incrementAndGet();
    }

    private static void checkTarget(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("target bytes must be >= 0, was " + bytes);
        }
    }
}
