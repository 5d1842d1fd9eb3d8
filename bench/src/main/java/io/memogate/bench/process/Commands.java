package io.memogate.bench.process;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Runs short-lived commands (pgbench, version queries) to completion, with a bound on how long. */
public final class Commands {

    private Commands() {
    }

    /**
     * Runs {@code command} with exactly {@code environment} (nothing inherited, so a PGHOST or PGOPTIONS
     * in the caller's shell cannot change what is measured), stdin closed.
     */
    public static CommandResult run(List<String> command, Map<String, String> environment, Duration timeout)
            throws IOException, InterruptedException {
        return RunningCommand.start(command, environment, line -> { }).finish(timeout);
    }

    /** The minimal environment for a client tool: PATH and a C locale (pgbench prints numbers with printf). */
    public static Map<String, String> baseEnvironment() {
        String path = System.getenv("PATH");
        return Map.of("PATH", path == null ? "/usr/bin:/bin" : path, "LC_ALL", "C");
    }
}
