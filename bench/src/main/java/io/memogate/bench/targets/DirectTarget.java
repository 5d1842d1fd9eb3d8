package io.memogate.bench.targets;

/** The server itself; nothing to start or stop. */
public record DirectTarget(Backend backend, String serverVersion) implements Target {

    @Override
    public TargetKind kind() {
        return TargetKind.DIRECT;
    }

    @Override
    public int port() {
        return backend.port();
    }

    @Override
    public String description() {
        return "PostgreSQL " + serverVersion + " on " + backend.host() + ":" + backend.port();
    }

    @Override
    public void close() {
        // The server belongs to the benchmark, which stops it after every target.
    }
}
