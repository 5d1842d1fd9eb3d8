package io.memogate.bench.pgbench;

import io.memogate.bench.process.CommandResult;
import io.memogate.bench.process.Commands;
import io.memogate.bench.process.Executables;
import io.memogate.bench.process.RunningCommand;
import io.memogate.bench.targets.Backend;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Drives Debian's pgbench (postgresql-client) against one port on 127.0.0.1, as the benchmark's user.
 * Every target gets the same command line and environment: no TLS (sslmode and gssencmode disabled, so
 * no target pays for a refused negotiation the others skip), a C locale for the numbers, and nothing
 * inherited that could change the connection.
 */
public final class Pgbench {

    /** Beyond the run itself: connecting 16 clients, and a slow machine finishing up. */
    private static final Duration SLACK = Duration.ofSeconds(60);

    private final Path executable;
    private final Backend backend;

    public Pgbench(Path executable, Backend backend) {
        this.executable = executable;
        this.backend = backend;
    }

    /** The pgbench on the PATH, or a message saying how to get it. */
    public static Path find(Executables executables) {
        return executables.find("pgbench").orElseThrow(() -> new IllegalStateException(
                "pgbench is not installed; install your system's PostgreSQL client"
                        + " (Debian: apt-get install postgresql-client)"));
    }

    /** {@code pgbench -i -s scale} straight to the server: tables, data, primary keys, vacuum. */
    public CommandResult initialize(int scale) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(executable.toString(), "-i", "-s", Integer.toString(scale), "-q"));
        command.addAll(connection(backend.port()));
        CommandResult result = Commands.run(command, environment(), Duration.ofMinutes(30));
        if (result.exitCode() != 0) {
            throw new IOException(result.commandLine() + " failed with status " + result.exitCode() + ":\n" + result.output());
        }
        return result;
    }

    /**
     * Runs the select-only script ({@code -S}) against {@code port}. {@code -n} skips the vacuum
     * pgbench would otherwise run through the target before each run: the data is vacuumed once after
     * loading and only read afterwards, and a vacuum per run would add server work between runs.
     */
    public PgbenchRun run(int port, PgbenchLoad load) throws IOException, InterruptedException {
        CommandResult result = Commands.run(command(port, load, List.of()), environment(), timeout(load));
        return new PgbenchRun(result, PgbenchOutput.parse(result.exitCode(), result.output()));
    }

    /**
     * Starts the run of {@link #run} with a progress report every second, stamped with the time of day
     * ({@code -P 1 --progress-timestamp}, see {@link PgbenchProgress}), and returns while it runs.
     */
    public PgbenchInProgress start(int port, PgbenchLoad load) throws IOException {
        PgbenchInProgress running = new PgbenchInProgress(timeout(load));
        running.started(RunningCommand.start(command(port, load, List.of("-P", "1", "--progress-timestamp")),
                environment(), running::line));
        return running;
    }

    private List<String> command(int port, PgbenchLoad load, List<String> progress) {
        List<String> command = new ArrayList<>(List.of(executable.toString(), "-n", "-S",
                "-M", load.mode().label(),
                "-c", Integer.toString(load.clients()),
                "-j", Integer.toString(load.threads()),
                "-T", Integer.toString(load.seconds())));
        command.addAll(progress);
        command.addAll(connection(port));
        return command;
    }

    private static Duration timeout(PgbenchLoad load) {
        return Duration.ofSeconds(load.seconds()).plus(SLACK);
    }

    /** The command line that {@link #run} uses, for the report. */
    public String describe(PgbenchLoad load) {
        return "pgbench -n -S -M " + load.mode().label() + " -c " + load.clients() + " -j " + load.threads()
                + " -T " + load.seconds() + " -h 127.0.0.1 -p PORT -U " + backend.user() + " " + backend.database();
    }

    private List<String> connection(int port) {
        return List.of("-h", "127.0.0.1", "-p", Integer.toString(port), "-U", backend.user(), backend.database());
    }

    private Map<String, String> environment() {
        Map<String, String> environment = new HashMap<>(Commands.baseEnvironment());
        environment.put("PGPASSWORD", backend.password());
        environment.put("PGSSLMODE", "disable");
        environment.put("PGGSSENCMODE", "disable");
        environment.put("PGCONNECT_TIMEOUT", "10");
        return environment;
    }
}
