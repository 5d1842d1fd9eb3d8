package io.memogate.broker;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.memogate.broker.probe.MemoryProbe;
import io.memogate.broker.probe.MemorySnapshot;
import io.memogate.broker.probe.ProbeException;
import io.memogate.broker.probe.ProbeFactory;

/**
 * Polls the server through a {@link MemoryProbe} on its own thread and publishes an immutable
 * {@link BrokerState} with the compile-memory target ({@link TargetPolicy}) to a {@link BrokerListener}.
 * It knows nothing of the gateways or the network; the proxy wires the listener to them.
 *
 * <p>Modes ({@link BrokerMode}), after each poll:
 * <pre>
 *   good poll                                           -> LIVE    target from TargetPolicy
 *   failed poll, last good snapshot younger than grace -> STALE   the last LIVE target is kept
 *   failed poll, no good snapshot or grace expired      -> STATIC  the static target; history dropped,
 *                                                                  so the next good poll starts afresh
 * </pre>
 * Ages come from the injected clock, which must be the clock the probe stamps snapshots with. Each
 * change of mode is logged once (a warning when polls start failing or the grace runs out, info when
 * LIVE again), not every failed poll. The listener hears every poll, good or failed.
 *
 * <p>In a fleet, one broker per server polls for all ({@link BrokerLeadership}): before each poll the broker
 * claims the fleet's lease. The leader polls and publishes its state under its epoch; a follower polls
 * nothing and takes the leader's publication, in the leader's mode while it is fresh (at most {@link
 * BrokerSettings#PROBE_TIMEOUT_INTERVALS} intervals old), STALE with its target as it ages through the grace
 * period, then STATIC. A follower keeps the leader's target as its own, so that it goes on from there if it
 * takes over. While the fleet's store is away every broker polls for itself.
 *
 * <p>Polls run one at a time: on the "memogate-broker" daemon thread with a fixed delay after
 * {@link #start()}, or directly through {@link #pollOnce()} (tests, with a manual clock).
 */
public final class Broker implements AutoCloseable {

    static final String THREAD_NAME = "memogate-broker";
    private static final Logger LOG = LoggerFactory.getLogger(Broker.class);

    private final BrokerSettings settings;
    private final MemoryProbe probe;
    private final LongSupplier nanoTime;
    private final BrokerListener listener;
    private final TargetPolicy policy;
    private final BrokerLeadership leadership;
    private final Object pollLock = new Object();
    private final Object lifecycleLock = new Object();

    // Guarded by pollLock.
    private MemorySnapshot lastGood;
    /** The snapshot the next interval is measured from; null after the static fallback. */
    private MemorySnapshot baseline;
    private Optional<IntervalStatistics> lastInterval = Optional.empty();
    /** The target of the last LIVE poll, kept through STALE; empty before it and in STATIC. */
    private OptionalLong liveTarget = OptionalLong.empty();
    private int consecutiveFailures;
    private long totalFailures;
    private String lastFailure;

    private volatile BrokerState state;
    private volatile boolean closed;
    private ScheduledExecutorService poller; // guarded by lifecycleLock

    /**
     * A broker over the probe {@code probes} opens for the settings' monitoring connection: the factory of
     * the server kind the proxy fronts. The probe stamps its snapshots with this broker's clock.
     */
    public Broker(BrokerSettings settings, ProbeFactory probes, LongSupplier nanoTime, BrokerListener listener) {
        this(settings, probes, nanoTime, listener, BrokerLeadership.ALONE);
    }

    /** As {@link #Broker(BrokerSettings, ProbeFactory, LongSupplier, BrokerListener)}, one of a fleet's. */
    public Broker(BrokerSettings settings, ProbeFactory probes, LongSupplier nanoTime, BrokerListener listener,
                  BrokerLeadership leadership) {
        this(settings, probes.open(Objects.requireNonNull(settings, "settings").probeSettings(), nanoTime), nanoTime,
                listener, leadership);
    }

    public Broker(BrokerSettings settings, MemoryProbe probe, LongSupplier nanoTime, BrokerListener listener) {
        this(settings, probe, nanoTime, listener, BrokerLeadership.ALONE);
    }

    /** @param leadership whether this instance polls for its fleet, or follows the broker that does */
    public Broker(BrokerSettings settings, MemoryProbe probe, LongSupplier nanoTime, BrokerListener listener,
                  BrokerLeadership leadership) {
        this.leadership = Objects.requireNonNull(leadership, "leadership");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.probe = Objects.requireNonNull(probe, "probe");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.policy = new TargetPolicy(settings);
        this.state = staticState();
    }

    /** The latest state; STATIC with the static target until the first poll. */
    public BrokerState state() {
        return state;
    }

    /**
     * Polls once, now, on the calling thread; publishes and returns the new state. After close() it
     * polls nothing and returns the last state.
     */
    public BrokerState pollOnce() {
        synchronized (pollLock) {
            if (closed) {
                return state;
            }
            BrokerRole role = leadership.claim();
            if (closed) {
                return state;
            }
            BrokerState previous = state;
            if (!role.polls()) {
                BrokerState next = following(role, leadership.published());
                state = next;
                logFollowing(previous, next);
                publish(next);
                return next;
            }
            MemorySnapshot snapshot = null;
            String failure = null;
            RuntimeException unexpected = null;
            try {
                snapshot = probe.probe();
            } catch (ProbeException e) {
                failure = e.getMessage();
            } catch (RuntimeException e) {
                // A bug in a probe is still a failed poll: fall back rather than publish nothing.
                failure = "the memory probe failed unexpectedly: " + e;
                unexpected = e;
            }
            if (closed) {
                return state; // close() cut this poll short; its failure says nothing about the server
            }
            BrokerState next = (snapshot != null ? succeeded(snapshot) : failed(failure)).as(role);
            state = next;
            logRole(previous.role(), role);
            logTransition(previous, next, unexpected);
            if (role.kind() == BrokerRole.Kind.LEADER && !leadership.publish(role, next)) {
                LOG.warn("broker fenced: the fleet's lease epoch {} passed to another instance (or the fleet's store"
                        + " did not answer); this poll's target is not published", role.epoch());
            }
            publish(next);
            return next;
        }
    }

    /** Starts polling every {@link BrokerSettings#interval()} (fixed delay), the first poll at once. */
    public void start() {
        synchronized (lifecycleLock) {
            if (closed) {
                throw new IllegalStateException("the broker is closed");
            }
            if (poller != null) {
                throw new IllegalStateException("the broker is already started");
            }
            poller = Executors.newSingleThreadScheduledExecutor(task -> {
                Thread thread = new Thread(task, THREAD_NAME);
                thread.setDaemon(true);
                return thread;
            });
            poller.scheduleWithFixedDelay(this::pollFromPoller, 0, settings.interval().toNanos(),
                    TimeUnit.NANOSECONDS);
        }
    }

    /**
     * Stops polling and closes the probe's connection. Closing the probe first makes a poll blocked on
     * the server fail at once; the poller thread is then given the probe timeout to finish.
     */
    @Override
    public void close() {
        ScheduledExecutorService running;
        synchronized (lifecycleLock) {
            if (closed) {
                return;
            }
            closed = true;
            running = poller;
        }
        if (running != null) {
            running.shutdown();
        }
        probe.close();
        if (running != null) {
            try {
                if (!running.awaitTermination(settings.probeTimeout().toNanos(), TimeUnit.NANOSECONDS)) {
                    LOG.warn("the broker's poll did not end within {} of close", settings.probeTimeout());
                    running.shutdownNow();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                running.shutdownNow();
            }
        }
    }

    private BrokerState succeeded(MemorySnapshot snapshot) {
        Optional<IntervalStatistics> interval = baseline == null ? Optional.empty()
                : IntervalStatistics.between(baseline, snapshot);
        TargetDecision decision = policy.next(liveTarget, lastInterval, interval, snapshot);
        lastGood = snapshot;
        baseline = snapshot;
        lastInterval = interval;
        liveTarget = OptionalLong.of(decision.targetBytes());
        consecutiveFailures = 0;
        return new BrokerState(BrokerMode.LIVE, decision.targetBytes(), Optional.of(snapshot),
                Optional.of(age(snapshot)), interval, 0, totalFailures, Optional.ofNullable(lastFailure),
                decision.signals(), snapshot.plannerSettings(), snapshot.memory().retainedBytesById());
    }

    private BrokerState failed(String failure) {
        consecutiveFailures++;
        totalFailures++;
        lastFailure = failure;
        Optional<Duration> age = Optional.ofNullable(lastGood).map(this::age);
        if (liveTarget.isPresent() && age.isPresent() && age.get().compareTo(settings.gracePeriod()) < 0) {
            return new BrokerState(BrokerMode.STALE, liveTarget.getAsLong(), Optional.of(lastGood), age,
                    lastInterval, consecutiveFailures, totalFailures, Optional.of(failure), state.pressureSignals(),
                    lastGood.plannerSettings(), lastGood.memory().retainedBytesById());
        }
        // Stale figures would steer the gateways wrongly; and an interval spanning the outage would
        // compare a long average with a short one, so the next good poll starts afresh.
        liveTarget = OptionalLong.empty();
        baseline = null;
        lastInterval = Optional.empty();
        return staticState();
    }

    /**
     * A follower's state from the leader's publication: the leader's mode while fresh, STALE with its target
     * through the grace period, then STATIC. The leader's target becomes this broker's history, so that it
     * smooths on from it if it leads next; the interval history is the leader's, so it starts afresh.
     */
    private BrokerState following(BrokerRole role, Optional<PublishedTarget> published) {
        consecutiveFailures = 0;
        baseline = null;
        lastInterval = Optional.empty();
        Duration fresh = settings.interval().multipliedBy(BrokerSettings.PROBE_TIMEOUT_INTERVALS);
        if (published.isPresent()) {
            PublishedTarget p = published.get();
            boolean isFresh = p.age().compareTo(fresh) <= 0;
            if (isFresh || p.mode() != BrokerMode.STATIC && p.age().compareTo(settings.gracePeriod()) < 0) {
                BrokerMode mode = isFresh ? p.mode() : BrokerMode.STALE;
                liveTarget = mode == BrokerMode.STATIC ? OptionalLong.empty() : OptionalLong.of(p.targetBytes());
                return new BrokerState(mode, p.targetBytes(), Optional.empty(), Optional.of(p.age()), Optional.empty(),
                        0, totalFailures, Optional.ofNullable(lastFailure), p.signals(), p.plannerSettings(), Map.of(),
                        role);
            }
        }
        liveTarget = OptionalLong.empty();
        return new BrokerState(BrokerMode.STATIC, settings.staticTargetBytes(), Optional.empty(),
                published.map(PublishedTarget::age), Optional.empty(), 0, totalFailures,
                Optional.ofNullable(lastFailure),
                Set.of(), Map.of(), Map.of(), role);
    }

    private BrokerState staticState() {
        Optional<MemorySnapshot> snapshot = Optional.ofNullable(lastGood);
        return new BrokerState(BrokerMode.STATIC, settings.staticTargetBytes(), snapshot, snapshot.map(this::age),
                Optional.empty(), consecutiveFailures, totalFailures, Optional.ofNullable(lastFailure), Set.of(),
                Map.of(), Map.of());
    }

    private Duration age(MemorySnapshot snapshot) {
        return Duration.ofNanos(nanoTime.getAsLong() - snapshot.takenAtNanos());
    }

    /**
     * Once per change: the first failure after a good poll (or after start), the grace running out, and
     * the return to LIVE. Other failed polls only at debug level, so a long outage does not flood the log.
     */
    private void logTransition(BrokerState previous, BrokerState next, RuntimeException unexpected) {
        boolean changed = previous.mode() != next.mode();
        String probe = settings.probeSettings().describeUrl();
        // One structured line per fallback and per recovery, key=value as the proxy's refusal lines, so that
        // log searches and alerts can match "broker fallback" and read the mode and target off it.
        switch (next.mode()) {
            case LIVE -> {
                if (changed) {
                    LOG.info("broker live: mode=live target_bytes={} probe={}", next.targetBytes(), probe);
                }
            }
            case STALE -> {
                if (changed) {
                    LOG.warn("broker fallback: mode=stale target_bytes={} grace={} probe={} failure=\"{}\"",
                            next.targetBytes(), settings.gracePeriod(), probe, next.lastFailure().orElseThrow(),
                            unexpected);
                } else {
                    LOG.debug("memory probe failed again ({} in a row): {}", next.consecutiveFailures(),
                            next.lastFailure().orElseThrow());
                }
            }
            case STATIC -> {
                if (changed || next.consecutiveFailures() == 1) {
                    LOG.warn("broker fallback: mode=static target_bytes={} probe={} failure=\"{}\"", next.targetBytes(),
                            probe, next.lastFailure().orElseThrow(), unexpected);
                } else {
                    LOG.debug("memory probe failed again ({} in a row): {}", next.consecutiveFailures(),
                            next.lastFailure().orElseThrow());
                }
            }
        }
    }

    /** Once per change of the part this instance plays in its fleet's polling. */
    private void logRole(BrokerRole previous, BrokerRole next) {
        if (previous.kind() == next.kind() && previous.epoch() == next.epoch()) {
            return;
        }
        switch (next.kind()) {
            case LEADER -> LOG.info("broker leader: this instance polls the server for its fleet, epoch={} probe={}",
                    next.epoch(), settings.probeSettings().describeUrl());
            case ALONE -> LOG.warn("broker alone: the fleet's store does not answer, this instance polls the server"
                    + " for itself");
            case FOLLOWER -> { } // logFollowing says it
        }
    }

    /** Once per change of the leader, its epoch, or the mode its publication leaves this follower in. */
    private void logFollowing(BrokerState previous, BrokerState next) {
        BrokerRole role = next.role();
        if (previous.mode() == next.mode() && previous.role().equals(role)) {
            return;
        }
        String line = "broker follower: mode={} target_bytes={} leader={} epoch={} published_age={}";
        Object[] args = {next.mode().name().toLowerCase(Locale.ROOT), next.targetBytes(), role.leader(),
                role.epoch(), next.lastGoodAge().map(Duration::toString).orElse("none")};
        if (next.mode() == BrokerMode.LIVE) {
            LOG.info(line, args);
        } else {
            LOG.warn(line, args);
        }
    }

    /** A periodic task that throws is never run again: log a bug and keep polling. */
    private void pollFromPoller() {
        try {
            pollOnce();
        } catch (RuntimeException e) {
            LOG.error("broker poll failed; polling goes on", e);
        }
    }

    /** A failing listener is logged, not rethrown: the scheduler would cancel the polling for good. */
    private void publish(BrokerState published) {
        try {
            listener.published(published);
        } catch (RuntimeException e) {
            LOG.warn("broker listener {} failed on a {} state", listener, published.mode(), e);
        }
    }
}
