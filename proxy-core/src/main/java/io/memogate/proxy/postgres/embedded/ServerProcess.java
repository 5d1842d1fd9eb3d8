package io.memogate.proxy.postgres.embedded;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running postmaster: launched with {@code postgres -D}, watched until it reports ready, stopped
 * with a fast shutdown.
 *
 * <p>Readiness is read from postmaster.pid the way {@code pg_ctl -w} does it: line 1 holds the
 * postmaster's pid and line 8 its status, which becomes "ready" once it accepts connections
 * (src/include/utils/pidfile.h, LOCK_FILE_LINE_PM_STATUS). Unlike a login attempt this does not
 * depend on pg_hba.conf or on the superuser's password.
 */
final class ServerProcess {

    /** How a start attempt ended when it did not throw. */
    enum Start { READY, PORT_IN_USE }

    private static final Logger LOG = LoggerFactory.getLogger(ServerProcess.class);
    private static final Duration POLL_INTERVAL = Duration.ofMillis(25);
    private static final Duration FORCED_EXIT_WAIT = Duration.ofSeconds(10);

    private final Process process;
    private final Path installDirectory;
    private final Path dataDirectory;
    private final Path logFile;
    private final long logStart;
    private final ToolRunner tools;

    private ServerProcess(Process process, Path installDirectory, Path dataDirectory, Path logFile, long logStart,
                          ToolRunner tools) {
        this.process = process;
        this.installDirectory = installDirectory;
        this.dataDirectory = dataDirectory;
        this.logFile = logFile;
        this.logStart = logStart;
        this.tools = tools;
    }

    /** Starts {@code postgres -D dataDirectory -c name=value ...} as {@code account}; returns at once. */
    static ServerProcess launch(Path installDirectory, Path dataDirectory, Map<String, String> settings,
                                ServerAccount account, Path logFile, ToolRunner tools) {
        List<String> command = new ArrayList<>(List.of(
                installDirectory.resolve("bin/postgres").toString(), "-D", dataDirectory.toString()));
        settings.forEach((name, value) -> command.addAll(List.of("-c", name + "=" + value)));
        long logStart = LogTail.sizeOf(logFile);
        try {
            Process process = new ProcessBuilder(account.command(command))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                    .start();
            return new ServerProcess(process, installDirectory, dataDirectory, logFile, logStart, tools);
        } catch (IOException e) {
            throw new EmbeddedPostgresException("cannot start postgres as " + account.describe(), e);
        }
    }

    /**
     * Waits until the server accepts connections. Returns {@link Start#PORT_IN_USE} when it exited
     * because another process took the port (the caller may retry on another); throws, after stopping
     * the server, when it exits for any other reason or is not ready within {@code timeout}.
     */
    Start awaitReady(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (isReady()) {
                return Start.READY;
            }
            if (!process.isAlive()) {
                String log = LogTail.read(logFile, logStart, LogTail.DEFAULT_LINES);
                if (log.contains("could not create any TCP/IP sockets") && log.contains("Address already in use")) {
                    return Start.PORT_IN_USE;
                }
                throw new EmbeddedPostgresException("postgres exited with " + process.exitValue()
                        + " while starting; end of " + logFile + ":\n" + log);
            }
            Thread.sleep(POLL_INTERVAL);
        }
        stop(Duration.ofSeconds(10));
        throw new EmbeddedPostgresException("postgres did not accept connections within " + timeout
                + "; end of " + logFile + ":\n" + LogTail.read(logFile, logStart, LogTail.DEFAULT_LINES));
    }

    private boolean isReady() {
        List<String> lines;
        try {
            lines = Files.readAllLines(dataDirectory.resolve("postmaster.pid"), StandardCharsets.US_ASCII);
        } catch (NoSuchFileException e) {
            return false; // not written yet
        } catch (IOException e) {
            throw new EmbeddedPostgresException("cannot read " + dataDirectory.resolve("postmaster.pid"), e);
        }
        // The file is rewritten while the server starts; a short or odd read just means "not yet".
        return lines.size() >= 8
                && lines.get(0).strip().equals(Long.toString(process.pid()))
                && lines.get(7).strip().equals("ready");
    }

    boolean isAlive() {
        return process.isAlive();
    }

    long pid() {
        return process.pid();
    }

    /**
     * Fast shutdown ({@code pg_ctl stop -m fast}: SIGINT, which disconnects clients and checkpoints;
     * Process.destroy would send SIGTERM, a smart shutdown that waits for every client to leave). If the
     * server is still there after {@code timeout}, it and its backends are killed.
     */
    void stop(Duration timeout) throws InterruptedException {
        if (!process.isAlive()) {
            return;
        }
        long seconds = Math.max(1, timeout.toSeconds());
        int exit = tools.runForExitCode(List.of(installDirectory.resolve("bin/pg_ctl").toString(),
                "stop", "-D", dataDirectory.toString(), "-m", "fast", "-w", "-t", Long.toString(seconds)),
                timeout.plusSeconds(5));
        // pg_ctl also fails when the server is already going down (Ctrl-C reached its process group
        // first); then waiting is all there is to do.
        if (exit != 0 && process.isAlive()) {
            LOG.warn("pg_ctl stop exited with {}; waiting for postgres {} to exit", exit, process.pid());
        }
        if (process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            return;
        }
        LOG.warn("postgres {} did not stop within {}; killing it and its backends", process.pid(), timeout);
        // Collect the backends first: once the postmaster is gone they are re-parented and out of reach.
        List<ProcessHandle> backends = process.descendants().toList();
        process.destroyForcibly();
        backends.forEach(ProcessHandle::destroyForcibly);
        if (!process.waitFor(FORCED_EXIT_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new EmbeddedPostgresException("postgres " + process.pid() + " survived SIGKILL");
        }
    }
}
