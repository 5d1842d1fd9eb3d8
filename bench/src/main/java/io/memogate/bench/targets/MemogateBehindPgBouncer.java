package io.memogate.bench.targets;

import io.memogate.bench.process.RunAs;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * PgBouncer in transaction mode in front of the shipped proxy, the proxy in front of the server: the deployment
 * docs/operations.md gives an application with thousands of connections. pgbench connects to PgBouncer; PgBouncer's
 * pool of {@link PgBouncerTarget#TRANSACTION_POOL} "server" connections are Memogate sessions, each with its own
 * server connection. What the two relays cost is both processes' CPU; the counts are the proxy's.
 */
final class MemogateBehindPgBouncer implements Target {

    private final ShippedMemogateTarget proxy;
    private final PgBouncerTarget pooler;

    private MemogateBehindPgBouncer(ShippedMemogateTarget proxy, PgBouncerTarget pooler) {
        this.proxy = proxy;
        this.pooler = pooler;
    }

    /**
     * Starts the proxy ({@code launcher}, {@code bin/memogate} of a checkout) in front of {@code backend}, then
     * PgBouncer in front of the proxy, its pool logging in through the proxy with the bench's role.
     */
    static MemogateBehindPgBouncer start(Path launcher, Path pgbouncer, Backend backend, ShippedMemogateTarget.Login monitor,
                                         RunAs account, int clients)
            throws IOException, InterruptedException {
        ShippedMemogateTarget proxy = ShippedMemogateTarget.start(TargetKind.MEMOGATE_BEHIND_PGBOUNCER, launcher, backend,
                monitor);
        try {
            Backend throughProxy = new Backend("127.0.0.1", proxy.port(), backend.database(), backend.user(),
                    backend.password());
            PgBouncerTarget pooler = PgBouncerTarget.start(TargetKind.MEMOGATE_BEHIND_PGBOUNCER, pgbouncer,
                    throughProxy, account, clients);
            return new MemogateBehindPgBouncer(proxy, pooler);
        } catch (IOException | InterruptedException | RuntimeException e) {
            proxy.close();
            throw e;
        }
    }

    @Override
    public TargetKind kind() {
        return TargetKind.MEMOGATE_BEHIND_PGBOUNCER;
    }

    @Override
    public int port() {
        return pooler.port();
    }

    @Override
    public String description() {
        return "PgBouncer in front: " + pooler.description() + "; behind it " + proxy.description();
    }

    /** Both relays' CPU: what the deployment costs the machine beyond pgbench and the server. */
    @Override
    public Optional<Duration> cpuTime() {
        return pooler.cpuTime().flatMap(front -> proxy.cpuTime().map(front::plus));
    }

    @Override
    public OptionalLong relayPid() {
        return proxy.relayPid();
    }

    @Override
    public Set<Long> relayPids() {
        return Set.of(proxy.pid(), pooler.pid());
    }

    @Override
    public void close() throws IOException {
        try {
            pooler.close();
        } finally {
            proxy.close();
        }
    }
}
