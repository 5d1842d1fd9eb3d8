package io.memogate.bench.storm.governor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An emulated smaller database host: the kernel's OOM killer for one PostgreSQL server, with a memory
 * limit far below the real machine's.
 *
 * <p>Every {@code interval} it sums the private memory (RssAnon) of the postmaster and all its children;
 * when the total exceeds the limit it SIGKILLs the largest child, never the postmaster. PostgreSQL then
 * does what it does after a real OOM kill: ends every other session ("terminating connection because of
 * crash of another server process") and reinitializes. Like the kernel, which picks no new victim while
 * the last one is still exiting, a killed process's memory leaves the total at once, so one kill is not
 * followed by a second on a process that was merely next in size.
 *
 * <p>If sampling ever fails unexpectedly, the governor kills every child of the postmaster and stops:
 * a storm must never run unwatched. {@link #failure()} then says why.
 */
public final class MemoryGovernor implements AutoCloseable {

    /** A 16-table star grows by about 60 MB/s, so sampling every 50 ms lets it overshoot by a few MB at most. */
    public static final Duration MAX_INTERVAL = Duration.ofMillis(50);

    /** Low within SCHED_FIFO's 1-99: above every ordinary thread, below the kernel's own real-time threads. */
    private static final int REAL_TIME_PRIORITY = 10;

    private static final Logger LOG = LoggerFactory.getLogger(MemoryGovernor.class);

    private final ProcessTable table;
    private final long postmasterPid;
    private final long limitBytes;
    private final Duration interval;
    private final LongSupplier nanoTime;
    private final MemoryTrace trace = new MemoryTrace();
    private final List<Kill> kills = new ArrayList<>(); // guarded by this
    /** Children killed and not yet gone from the process table; only the sampling thread touches it. */
    private final Set<Long> dying = new HashSet<>();
    private volatile Throwable failure;
    private volatile boolean realTime;
    private volatile boolean running;
    private Thread thread;

    public MemoryGovernor(ProcessTable table, long postmasterPid, long limitBytes, Duration interval,
                          LongSupplier nanoTime) {
        if (limitBytes <= 0) {
            throw new IllegalArgumentException("limitBytes must be > 0, was " + limitBytes);
        }
        if (interval.isNegative() || interval.isZero() || interval.compareTo(MAX_INTERVAL) > 0) {
            throw new IllegalArgumentException("interval must be in (0, " + MAX_INTERVAL.toMillis() + " ms], was "
                    + interval.toMillis() + " ms");
        }
        this.table = table;
        this.postmasterPid = postmasterPid;
        this.limitBytes = limitBytes;
        this.interval = interval;
        this.nanoTime = nanoTime;
    }

    /** Takes a first sample on the caller's thread (so a broken /proc fails here), then samples on its own. */
    public synchronized MemoryGovernor start() {
        if (thread != null) {
            throw new IllegalStateException("already started");
        }
        sample();
        running = true;
        thread = Thread.ofPlatform().name("storm-memory-governor-" + postmasterPid).daemon(true).start(this::loop);
        return this;
    }

    private void loop() {
        realTime = RealTimeThread.raiseCurrent(REAL_TIME_PRIORITY);
        if (!realTime) {
            LOG.warn("memory governor for postmaster {} could not enter SCHED_FIFO (chrt); under full CPU load its"
                    + " samples may come late", postmasterPid);
        }
        long period = interval.toNanos();
        long next = nanoTime.getAsLong();
        while (running) {
            try {
                sample();
            } catch (RuntimeException | Error e) {
                failure = e;
                LOG.error("memory governor for postmaster {} failed; killing its backends", postmasterPid, e);
                table.children(postmasterPid).forEach(table::kill);
                running = false;
                return;
            }
            next += period;
            long wait = next - nanoTime.getAsLong();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            } else {
                next = nanoTime.getAsLong(); // fell behind (a busy machine): sample again at once, do not burst
            }
        }
    }

    /** One pass: measure, record, and kill the largest backend if the total is over the limit. */
    void sample() {
        long now = nanoTime.getAsLong();
        Map<Long, Long> bytes = new HashMap<>();
        table.privateBytes(postmasterPid).ifPresent(b -> bytes.put(postmasterPid, b));
        for (long child : table.children(postmasterPid)) {
            OptionalLong b = table.privateBytes(child);
            if (b.isPresent()) {
                bytes.put(child, b.getAsLong());
            }
        }
        dying.retainAll(bytes.keySet());
        long total = 0;
        for (Map.Entry<Long, Long> entry : bytes.entrySet()) {
            if (!dying.contains(entry.getKey())) {
                total += entry.getValue();
            }
        }
        trace.add(now, total);
        if (total <= limitBytes) {
            return;
        }
        long victim = -1;
        long victimBytes = -1;
        for (Map.Entry<Long, Long> entry : bytes.entrySet()) {
            long pid = entry.getKey();
            if (pid != postmasterPid && !dying.contains(pid) && entry.getValue() > victimBytes) {
                victim = pid;
                victimBytes = entry.getValue();
            }
        }
        if (victim < 0) {
            return; // only the postmaster itself: the OOM killer would not end the server here either
        }
        table.kill(victim);
        dying.add(victim);
        synchronized (this) {
            kills.add(new Kill(now, victim, victimBytes, total));
        }
        LOG.info("memory governor: server private memory {} MB over the {} MB host; SIGKILL backend {} ({} MB)",
                total >> 20, limitBytes >> 20, victim, victimBytes >> 20);
    }

    public long limitBytes() {
        return limitBytes;
    }

    public Duration interval() {
        return interval;
    }

    /** Whether the sampling thread runs in the real-time class (see {@link RealTimeThread}). */
    public boolean realTime() {
        return realTime;
    }

    public MemoryTrace trace() {
        return trace;
    }

    public synchronized List<Kill> kills() {
        return List.copyOf(kills);
    }

    /** Kills in [from, to). */
    public synchronized List<Kill> kills(long fromNanos, long toNanos) {
        return kills.stream().filter(k -> k.atNanos() - fromNanos >= 0 && k.atNanos() - toNanos < 0).toList();
    }

    /** Why the governor stopped on its own; empty while it watches (or after a normal close). */
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure);
    }

    /** Stops sampling; call after the server has stopped, so that it was watched until its end. */
    @Override
    public void close() {
        Thread t;
        synchronized (this) {
            running = false;
            t = thread;
        }
        // No interrupt: it could fail a /proc read mid-sample, which the loop would take for a broken /proc.
        if (t != null) {
            try {
                t.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
