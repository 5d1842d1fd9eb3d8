package io.memogate.bench.targets;

import io.memogate.bench.process.Executables;
import io.memogate.bench.process.RunAs;
import io.memogate.proxy.config.NetworkConfig;
import io.memogate.proxy.config.NetworkTransport;
import io.memogate.proxy.server.TransportSelector;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Brings up each kind of target in front of one backend. A tool that is not installed is a skipped
 * target, not an error: the benchmark still compares what it can. A tool that is installed but does not
 * start is an error, with its log.
 */
public final class TargetLauncher {

    static final String NOT_INSTALLED = "not installed: skipped";
    static final String NO_SOCKET = "the server has no Unix socket here: skipped";
    static final String NO_LAUNCHER = "no bin/memogate beside this benchmark (run it from a checkout): skipped";
    static final String NO_BASELINE = "no baseline checkout named (--baseline DIR): skipped";

    private final Backend backend;
    private final String serverVersion;
    private final Executables executables;
    private final RunAs account;
    private final ShippedMemogateTarget.Login monitor;
    private final int mostClients;
    /** The checkout MEMOGATE_BASELINE runs, if one was named. */
    private final Optional<Path> baseline;

    /** For up to {@link PgBouncerTarget#DEFAULT_CLIENTS} clients at once. */
    public TargetLauncher(Backend backend, String serverVersion, Executables executables, RunAs account,
                          ShippedMemogateTarget.Login monitor) {
        this(backend, serverVersion, executables, account, monitor, PgBouncerTarget.DEFAULT_CLIENTS);
    }

    /**
     * @param monitor a pg_monitor role on the server, for the shipped proxy's broker
     * @param mostClients the most client connections a run opens at once: the poolers' limits are set to take them
     */
    public TargetLauncher(Backend backend, String serverVersion, Executables executables, RunAs account,
                          ShippedMemogateTarget.Login monitor, int mostClients) {
        this(backend, serverVersion, executables, account, monitor, mostClients, Optional.empty());
    }

    /** @param baseline the checkout whose bin/memogate MEMOGATE_BASELINE runs */
    public TargetLauncher(Backend backend, String serverVersion, Executables executables, RunAs account,
                          ShippedMemogateTarget.Login monitor, int mostClients, Optional<Path> baseline) {
        this.backend = backend;
        this.serverVersion = serverVersion;
        this.executables = executables;
        this.account = account;
        this.monitor = monitor;
        this.mostClients = mostClients;
        this.baseline = baseline;
    }

    public Launch launch(TargetKind kind) throws Exception {
        switch (kind) {
            case DIRECT -> {
                return new Launch.Started(new DirectTarget(backend, serverVersion));
            }
            case MEMOGATE_SHIPPED, MEMOGATE_SHIPPED_ONE_LOOP, MEMOGATE_SHIPPED_UNGATED -> {
                Optional<Path> launcher = ShippedMemogateTarget.launcher();
                return launcher.isEmpty() ? new Launch.Skipped(kind, NO_LAUNCHER)
                        : new Launch.Started(ShippedMemogateTarget.start(kind, launcher.get(), backend, monitor));
            }
            case MEMOGATE_BASELINE -> {
                if (baseline.isEmpty()) {
                    return new Launch.Skipped(kind, NO_BASELINE);
                }
                Optional<Path> launcher = ShippedMemogateTarget.launcherIn(baseline.get());
                return launcher.isEmpty() ? new Launch.Skipped(kind, "no bin/memogate in " + baseline.get() + ": skipped")
                        : new Launch.Started(ShippedMemogateTarget.start(kind, launcher.get(), backend, monitor));
            }
            case MEMOGATE -> {
                return new Launch.Started(MemogateTarget.start(backend));
            }
            case MEMOGATE_GATED -> {
                return new Launch.Started(MemogateTarget.startGated(backend));
            }
            case MEMOGATE_EPOLL -> {
                Optional<Throwable> unavailable = TransportSelector.NativeSupport.NETTY.epollUnavailable();
                return unavailable.isPresent() ? new Launch.Skipped(kind, cannotUse("epoll", unavailable.get()))
                        : new Launch.Started(MemogateTarget.start(kind, backend,
                                NetworkConfig.DEFAULTS.withTransport(NetworkTransport.EPOLL)));
            }
            case MEMOGATE_IO_URING -> {
                Optional<Throwable> unavailable = TransportSelector.NativeSupport.NETTY.ioUringUnavailable();
                return unavailable.isPresent() ? new Launch.Skipped(kind, cannotUse("io_uring", unavailable.get()))
                        : new Launch.Started(MemogateTarget.start(kind, backend,
                                NetworkConfig.DEFAULTS.withTransport(NetworkTransport.IO_URING)));
            }
            case MEMOGATE_ONE_LOOP -> {
                return new Launch.Started(MemogateTarget.start(kind, backend, NetworkConfig.DEFAULTS.withEventLoops(1)));
            }
            case MEMOGATE_UNIX -> {
                Optional<Backend> local = backend.overUnixSocket();
                return local.isEmpty() ? new Launch.Skipped(kind, NO_SOCKET)
                        : new Launch.Started(MemogateTarget.start(kind, local.get(), NetworkConfig.DEFAULTS));
            }
            case NETTY_RELAY -> {
                return new Launch.Started(NettyRelayTarget.start(backend));
            }
            case PGBOUNCER, PGBOUNCER_UNIX, PGBOUNCER_TRANSACTION -> {
                Optional<Path> executable = executables.find("pgbouncer");
                Optional<Backend> server = kind == TargetKind.PGBOUNCER_UNIX ? backend.overUnixSocket()
                        : Optional.of(backend);
                return executable.isEmpty() ? new Launch.Skipped(kind, NOT_INSTALLED)
                        : server.isEmpty() ? new Launch.Skipped(kind, NO_SOCKET)
                        : new Launch.Started(PgBouncerTarget.start(kind, executable.get(), server.get(), account,
                                mostClients));
            }
            case MEMOGATE_BEHIND_PGBOUNCER -> {
                Optional<Path> executable = executables.find("pgbouncer");
                Optional<Path> launcher = ShippedMemogateTarget.launcher();
                return executable.isEmpty() ? new Launch.Skipped(kind, "pgbouncer " + NOT_INSTALLED)
                        : launcher.isEmpty() ? new Launch.Skipped(kind, NO_LAUNCHER)
                        : new Launch.Started(MemogateBehindPgBouncer.start(launcher.get(), executable.get(), backend,
                                monitor, account, mostClients));
            }
            case HAPROXY, HAPROXY_ONE_THREAD, HAPROXY_UNIX -> {
                Optional<Path> executable = executables.find("haproxy");
                Optional<Backend> server = kind == TargetKind.HAPROXY_UNIX ? backend.overUnixSocket()
                        : Optional.of(backend);
                return executable.isEmpty() ? new Launch.Skipped(kind, NOT_INSTALLED)
                        : server.isEmpty() ? new Launch.Skipped(kind, NO_SOCKET)
                        : new Launch.Started(HaproxyTarget.start(kind, executable.get(), server.get()));
            }
            default -> throw new IllegalArgumentException("unknown target " + kind);
        }
    }

    /**
     * Skipped rather than started on the proxy's fallback: a column labelled io_uring that measured epoll
     * would make the comparison it exists for meaningless.
     */
    private static String cannotUse(String transport, Throwable cause) {
        return transport + " cannot be used in this JVM (" + cause + "): skipped";
    }
}
