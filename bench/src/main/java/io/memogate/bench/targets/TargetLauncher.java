package io.memogate.bench.targets;

import io.memogate.bench.process.Executables;
import io.memogate.bench.process.RunAs;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Brings up each kind of target in front of one backend. A tool that is not installed is a skipped
 * target, not an error: the benchmark still compares what it can. A tool that is installed but does not
 * start is an error, with its log.
 */
public final class TargetLauncher {

    static final String NOT_INSTALLED = "not installed: skipped";

    private final Backend backend;
    private final String serverVersion;
    private final Executables executables;
    private final RunAs account;

    public TargetLauncher(Backend backend, String serverVersion, Executables executables, RunAs account) {
        this.backend = backend;
        this.serverVersion = serverVersion;
        this.executables = executables;
        this.account = account;
    }

    public Launch launch(TargetKind kind) throws Exception {
        switch (kind) {
            case DIRECT -> {
                return new Launch.Started(new DirectTarget(backend, serverVersion));
            }
            case MEMOGATE -> {
                return new Launch.Started(MemogateTarget.start(backend));
            }
            case MEMOGATE_GATED -> {
                return new Launch.Started(MemogateTarget.startGated(backend));
            }
            case PGBOUNCER -> {
                Optional<Path> executable = executables.find("pgbouncer");
                return executable.isEmpty() ? new Launch.Skipped(kind, NOT_INSTALLED)
                        : new Launch.Started(PgBouncerTarget.start(executable.get(), backend, account));
            }
            case HAPROXY -> {
                Optional<Path> executable = executables.find("haproxy");
                return executable.isEmpty() ? new Launch.Skipped(kind, NOT_INSTALLED)
                        : new Launch.Started(HaproxyTarget.start(executable.get(), backend));
            }
            default -> throw new IllegalArgumentException("unknown target " + kind);
        }
    }
}
