package io.memogate.bench.targets;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** What pgbench can be pointed at; the CLI names them by {@link #label()}. */
public enum TargetKind {
    /** PostgreSQL itself: the baseline the "ratio to direct" column divides by. */
    DIRECT,
    /**
     * Memogate as a user runs it: {@code bin/memogate run} in a process of its own with the demo's configuration
     * (gateways, broker, catalogs, metrics). The benchmark's default Memogate target; the others run in the
     * benchmark's JVM, for A/B comparisons of one part.
     */
    MEMOGATE_SHIPPED,
    /**
     * As MEMOGATE_SHIPPED with {@code network.eventLoops: 1}: the option a DBA has on a host of a few cores, measured
     * as it ships (the in-JVM MEMOGATE_ONE_LOOP has no gateways, broker or metrics).
     */
    MEMOGATE_SHIPPED_ONE_LOOP,
    /**
     * As MEMOGATE_SHIPPED with {@code admission.enabled: false}: the same launcher, JVM options and metrics, but no
     * estimate, gateway, broker or catalog read, as a DBA who turns admission off runs it; so that what admission
     * costs is measured on what ships (MEMOGATE_GATED against MEMOGATE measures it inside the benchmark's JVM).
     */
    MEMOGATE_SHIPPED_UNGATED,
    /**
     * As MEMOGATE_SHIPPED, run by {@code bin/memogate} of another checkout (the passthrough's {@code --baseline DIR}):
     * a change against the build it changes, each as it ships, side by side in one run.
     */
    MEMOGATE_BASELINE,
    /** Memogate in this JVM, every statement admitted at once, on the transport network.transport auto picks. */
    MEMOGATE,
    /** Memogate in this JVM with the estimator and gateways on: what admission adds per statement. */
    MEMOGATE_GATED,
    /** As MEMOGATE, on epoll: with MEMOGATE_IO_URING, the two transports side by side in one run. */
    MEMOGATE_EPOLL,
    /** As MEMOGATE, on io_uring; skipped where io_uring cannot be used. */
    MEMOGATE_IO_URING,
    /** As MEMOGATE, with one event loop (network.eventLoops: 1) instead of one per processor. */
    MEMOGATE_ONE_LOOP,
    /**
     * As MEMOGATE, reaching the server over its Unix socket (a backend whose host is the socket directory),
     * as a proxy on the server's own host can: the server leg then costs no TCP.
     */
    MEMOGATE_UNIX,
    /**
     * A Netty relay that parses nothing, in a JVM of its own, built as the proxy's session legs
     * ({@code io.memogate.bench.relay.ByteRelay}): the floor of a relay on the proxy's stack, so that what the
     * shipped proxy spends above PgBouncer splits into its own work and the JVM's and Netty's.
     */
    NETTY_RELAY,
    /** PgBouncer in session mode, the connection pooler most deployments already run. */
    PGBOUNCER,
    /** As PGBOUNCER, reaching the server over its Unix socket: the like of MEMOGATE_UNIX. */
    PGBOUNCER_UNIX,
    /**
     * PgBouncer in transaction mode, a pool of {@code PgBouncerTarget.TRANSACTION_POOL} server connections however
     * many clients: what an application with thousands of connections runs in front of its server.
     */
    PGBOUNCER_TRANSACTION,
    /**
     * The deployment docs/operations.md gives such an application: PGBOUNCER_TRANSACTION in front of the shipped
     * proxy (MEMOGATE_SHIPPED's process and configuration), the proxy in front of the server. Its relay CPU is both
     * processes'; its counted system calls, switches and allocation are the proxy's.
     */
    MEMOGATE_BEHIND_PGBOUNCER,
    /** HAProxy as a plain TCP relay: the cost of a proxy hop that parses nothing. */
    HAPROXY,
    /**
     * As HAPROXY with one thread (nbthread 1): on two cores a relay's second thread competes with pgbench and
     * the server, so the plain relay at its best may be this one.
     */
    HAPROXY_ONE_THREAD,
    /** As HAPROXY, relaying to the server's Unix socket: the like of MEMOGATE_UNIX. */
    HAPROXY_UNIX;

    /**
     * Whether pgbench reaches the server through PgBouncer in transaction mode, which hands each transaction whichever
     * server connection is free (so a statement prepared in one may be missing in the next).
     */
    public boolean poolsTransactions() {
        return this == PGBOUNCER_TRANSACTION || this == MEMOGATE_BEHIND_PGBOUNCER;
    }

    /** The name in the CLI, the report and the file names of the runs: "memogate-gated". */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * The kind a label names, in any case; the enum constant's name ("MEMOGATE_GATED") is accepted too, and
     * so is the transport's own spelling ("memogate-io_uring").
     */
    public static TargetKind fromLabel(String label) {
        String wanted = label.strip().toLowerCase(Locale.ROOT).replace('_', '-');
        for (TargetKind kind : values()) {
            if (kind.label().equals(wanted)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown target '" + label + "', expected one of " + labels());
    }

    /** "direct, memogate, memogate-gated, ..., haproxy-unix", in declaration order. */
    public static String labels() {
        return Arrays.stream(values()).map(TargetKind::label).collect(Collectors.joining(", "));
    }
}
