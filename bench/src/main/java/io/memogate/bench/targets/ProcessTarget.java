package io.memogate.bench.targets;

import io.memogate.bench.process.ChildProcess;
import io.memogate.bench.process.TempDirectory;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A target that is a tool running as a child of this JVM (PgBouncer, HAProxy, the shipped proxy), listening on
 * 127.0.0.1:{@link #port()}, with its files in a temporary directory: its CPU time is its process's, and closing
 * it stops the process, then removes the directory.
 */
abstract class ProcessTarget implements Target {

    private final TargetKind kind;
    private final int port;
    private final ChildProcess process;
    private final TempDirectory directory;

    ProcessTarget(TargetKind kind, int port, ChildProcess process, TempDirectory directory) {
        this.kind = kind;
        this.port = port;
        this.process = process;
        this.directory = directory;
    }

    @Override
    public TargetKind kind() {
        return kind;
    }

    @Override
    public int port() {
        return port;
    }

    /** The tool's process. */
    long pid() {
        return process.pid();
    }

    @Override
    public OptionalLong relayPid() {
        return OptionalLong.of(pid());
    }

    @Override
    public Optional<Duration> cpuTime() {
        return process.cpuTime();
    }

    @Override
    public void close() throws IOException {
        try {
            process.close();
        } finally {
            directory.close();
        }
    }
}
