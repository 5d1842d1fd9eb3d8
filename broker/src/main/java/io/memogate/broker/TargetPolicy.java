package io.memogate.broker;

import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;

import io.memogate.broker.probe.MemorySnapshot;
import io.memogate.broker.probe.ServerMemory;

/**
 * The compile-memory target: how many bytes the compilations the gateways admit may use together. A
 * pure function of the previous target, the last two intervals' activity, the current snapshot and the
 * settings; it keeps no state, and reads only the server-neutral {@link MemorySnapshot}, so it sizes the
 * target alike for every kind of server.
 *
 * <pre>
 * host             = settings.hostMemoryBytes, else MemTotal of the snapshot (co-located), else unknown
 * plannable        = the smaller of host and memory.ceilingBytes (SQL Server: target server memory), either
 *                    alone when the other is unknown
 * executionReserve = memory.queryBytes: what the running queries may take (PostgreSQL: active backends
 *                    x work_mem x hash_mem_multiplier, each may hold at least one hash table that size)
 * spare            = plannable - memory.cacheBytes - executionReserve
 * raw              = max(minimum, share x max(0, spare));   raw = static target when plannable is unknown
 *
 * pressure signals:
 *   SPILLS_RISING      spilled bytes per second of the last interval > that of the interval before
 *                      (PostgreSQL: temp_bytes)
 *   HIT_RATIO_FALLING  cache hits / (hits + misses) of the last interval is more than 5 points below
 *                      that of the interval before (PostgreSQL: blks_hit and blks_read)
 *   MEMORY_NEAR_LIMIT  MemAvailable < 10% of MemTotal (co-located), or
 *                      sum of the server's retained bytes + memory.cacheBytes > 90% of host
 *   COMPILE_WAITS      compiles waited at the server's own compile gates in the last interval (SQL Server)
 *   MEMORY_WAITS_RISING ms waited for memory per second of the last interval > that of the interval before
 *                      (SQL Server: grant and memory allocation waits)
 *
 * target = raw                                            first poll (no previous target)
 *        = max(minimum, min(raw, previous x shrink))       under pressure
 *        = raw                                            no pressure, previous >= raw
 *        = min(raw, previous + recover x raw)             no pressure, previous < raw
 * </pre>
 *
 * Shrinking is multiplicative and fast; recovery is additive and slow, the smoothing of the paper's
 * broker (Baryshnikov et al., CIDR 2007): one quiet poll after a storm must not reopen the
 * gates. The target never exceeds raw: a rise in active queries takes effect at the next poll. An
 * interval that cannot be known (the first poll, a statistics reset) raises no signal.
 */
public final class TargetPolicy {

    /** A fall of the hit ratio by more than this (5 percentage points) is a signal. */
    static final double HIT_RATIO_DROP = 0.05;
    /** Less available memory than this share of MemTotal is a signal. */
    static final double AVAILABLE_FLOOR = 0.10;
    /** Server memory in use above this share of the host's memory is a signal. */
    static final double IN_USE_CEILING = 0.90;

    private final BrokerSettings settings;

    public TargetPolicy(BrokerSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    /**
     * The next target.
     *
     * @param previousTarget   the target the broker publishes now; empty on the first good poll and on
     *                         the first after the static fallback, which start at raw
     * @param previousInterval the activity of the interval before {@code lastInterval}, if known
     * @param lastInterval     the activity between the previous good snapshot and {@code current}, if known
     * @param current          the snapshot just taken
     */
    public TargetDecision next(OptionalLong previousTarget, Optional<IntervalStatistics> previousInterval,
                               Optional<IntervalStatistics> lastInterval, MemorySnapshot current) {
        long raw = rawTarget(current);
        Set<PressureSignal> signals = signals(previousInterval, lastInterval, current);
        long previous = previousTarget.orElse(raw);
        long target;
        if (!signals.isEmpty()) {
            long shrunk = (long) (previous * settings.pressureShrink());
            target = Math.max(settings.minimumTargetBytes(), Math.min(raw, shrunk));
        } else if (previous >= raw) {
            target = raw;
        } else {
            target = Math.min(raw, previous + (long) Math.ceil(settings.recoveryStep() * raw));
        }
        return new TargetDecision(target, raw, signals);
    }

    /** The host's memory: configured, else read from /proc/meminfo when co-located, else unknown. */
    public OptionalLong hostMemory(MemorySnapshot current) {
        return settings.hostMemoryBytes().isPresent() ? settings.hostMemoryBytes() : current.host().totalBytes();
    }

    /**
     * The memory the server's work must fit in: the host's, or the server's own ceiling when it keeps one below
     * it (SQL Server grows to its target server memory and no further, whatever the host has).
     */
    public OptionalLong plannableMemory(MemorySnapshot current) {
        OptionalLong host = hostMemory(current);
        OptionalLong ceiling = current.memory().ceilingBytes();
        if (host.isPresent() && ceiling.isPresent()) {
            return OptionalLong.of(Math.min(host.getAsLong(), ceiling.getAsLong()));
        }
        return host.isPresent() ? host : ceiling;
    }

    /** share x spare memory, at least the minimum; the static target when the plannable memory is unknown. */
    public long rawTarget(MemorySnapshot current) {
        OptionalLong plannable = plannableMemory(current);
        if (plannable.isEmpty()) {
            return settings.staticTargetBytes();
        }
        ServerMemory memory = current.memory();
        double spare = plannable.getAsLong() - memory.cacheBytes() - (double) memory.queryBytes();
        long share = (long) (settings.compileShare() * Math.max(0, spare));
        return Math.max(settings.minimumTargetBytes(), share);
    }

    /** The pressure signals that fire for this poll. */
    public Set<PressureSignal> signals(Optional<IntervalStatistics> previousInterval,
                                       Optional<IntervalStatistics> lastInterval, MemorySnapshot current) {
        Set<PressureSignal> signals = EnumSet.noneOf(PressureSignal.class);
        if (previousInterval.isPresent() && lastInterval.isPresent()) {
            IntervalStatistics before = previousInterval.get();
            IntervalStatistics last = lastInterval.get();
            if (last.spilledBytesPerSecond() > before.spilledBytesPerSecond()) {
                signals.add(PressureSignal.SPILLS_RISING);
            }
            OptionalDouble ratioBefore = before.hitRatio();
            OptionalDouble ratioLast = last.hitRatio();
            if (ratioBefore.isPresent() && ratioLast.isPresent()
                    && ratioBefore.getAsDouble() - ratioLast.getAsDouble() > HIT_RATIO_DROP) {
                signals.add(PressureSignal.HIT_RATIO_FALLING);
            }
            OptionalDouble waitsBefore = before.memoryWaitMillisPerSecond();
            OptionalDouble waitsLast = last.memoryWaitMillisPerSecond();
            if (waitsBefore.isPresent() && waitsLast.isPresent() && waitsLast.getAsDouble() > waitsBefore.getAsDouble()) {
                signals.add(PressureSignal.MEMORY_WAITS_RISING);
            }
        }
        // One interval suffices: any wait at the server's compile gates means it is short of compile memory now.
        if (lastInterval.isPresent() && lastInterval.get().compileWaits().orElse(0) > 0) {
            signals.add(PressureSignal.COMPILE_WAITS);
        }
        if (memoryNearLimit(current)) {
            signals.add(PressureSignal.MEMORY_NEAR_LIMIT);
        }
        return signals;
    }

    /**
     * Either test may fire. MemAvailable is the kernel's own view of the whole host, other programs
     * included; the sum is the server's own footprint against the host memory the broker plans with,
     * which a configured host size may set below the machine's.
     */
    private boolean memoryNearLimit(MemorySnapshot current) {
        OptionalLong total = current.host().totalBytes();
        OptionalLong available = current.host().availableBytes();
        if (total.isPresent() && available.isPresent() && available.getAsLong() < AVAILABLE_FLOOR * total.getAsLong()) {
            return true;
        }
        OptionalLong host = hostMemory(current);
        return host.isPresent()
                && current.memory().retainedBytesTotal() + current.memory().cacheBytes()
                        > IN_USE_CEILING * host.getAsLong();
    }
}
