package io.memogate.bench.report;

import java.time.Duration;
import java.util.Objects;

/**
 * How busy the whole machine was during one run: every process's CPU, pgbench's and the server's as
 * much as the relay's. A relay's throughput on two shared cores is set by the CPU the whole machine
 * spends per transaction, so this is what tells whether a goal is reachable by the relay at all.
 *
 * @param wall      the run's wall-clock time
 * @param cpus      the machine's CPUs
 * @param busyShare the share of the CPUs' time spent working (user, system, interrupts)
 * @param idleShare the share spent idle or waiting for I/O; the rest is time the hypervisor took (steal)
 */
public record MachineLoad(Duration wall, int cpus, double busyShare, double idleShare) {

    public MachineLoad {
        Objects.requireNonNull(wall, "wall");
        if (cpus < 1) {
            throw new IllegalArgumentException("cpus must be at least 1: " + cpus);
        }
    }

    /** The CPU time all processes together spent during the run, in microseconds. */
    public double busyMicros() {
        return wall.toNanos() / 1000.0 * cpus * busyShare;
    }
}
