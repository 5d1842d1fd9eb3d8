package io.memogate.bench.storm;

import io.memogate.bench.storm.governor.MemoryGovernor;
import io.memogate.bench.storm.governor.Postmaster;
import io.memogate.bench.storm.governor.ProcFs;
import io.memogate.bench.storm.load.Endpoint;
import io.memogate.proxy.postgres.embedded.DemoSchema;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresOptions;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The server under one cell of the storm: a fresh embedded PostgreSQL 18 with the BI planner settings,
 * the demo warehouse loaded, and a {@link MemoryGovernor} emulating the smaller host, watching it from
 * the moment the postmaster is up until after it has stopped.
 *
 * <p>A fresh server per cell means no retained backend memory, no half-finished crash recovery and no
 * cached state carries from one mode into the next. {@link #close()} stops it and then checks that none
 * of its processes is left; one that is gets SIGKILL and the close fails, so the run reports it.
 */
final class StormServer implements AutoCloseable {

    /**
     * As BI users tune PostgreSQL: the collapse limits and the GEQO threshold at 20, so that
     * joins of up to 19 tables plan by exhaustive dynamic programming with hundreds of MB.
     */
    static final Map<String, String> PLANNER_SETTINGS = Map.of(
            "join_collapse_limit", "20",
            "from_collapse_limit", "20",
            "geqo_threshold", "20");
    /** PostgreSQL's default; shared memory is not private memory, so it is not in the governor's total. */
    static final String SHARED_BUFFERS = "128MB";
    /** The most clients a plan may ask for, plus the broker, the governor's and the loader's sessions. */
    static final String MAX_CONNECTIONS = "100";

    private final EmbeddedPostgres postgres;
    private final MemoryGovernor governor;
    private final ProcFs proc;
    private final long postmasterPid;

    private StormServer(EmbeddedPostgres postgres, MemoryGovernor governor, ProcFs proc, long postmasterPid) {
        this.postgres = postgres;
        this.governor = governor;
        this.proc = proc;
        this.postmasterPid = postmasterPid;
    }

    /** Starts the server and its governor (before anything runs on it), then loads the warehouse. */
    static StormServer start(long hostMemoryBytes, Duration governorInterval) throws Exception {
        EmbeddedPostgresOptions.Builder options = EmbeddedPostgresOptions.builder()
                .setting("shared_buffers", SHARED_BUFFERS)
                .setting("max_connections", MAX_CONNECTIONS);
        PLANNER_SETTINGS.forEach(options::setting);
        EmbeddedPostgres postgres = EmbeddedPostgres.start(options.build());
        MemoryGovernor governor = null;
        try {
            ProcFs proc = new ProcFs();
            long postmaster = Postmaster.pid(postgres.dataDirectory());
            // Backends forked from now on inherit the postmaster's value; the auxiliaries already exist.
            proc.preferForOomKill(postmaster);
            proc.children(postmaster).forEach(proc::preferForOomKill);
            governor = new MemoryGovernor(proc, postmaster, hostMemoryBytes, governorInterval, System::nanoTime).start();
            new DemoSchema(postgres).load();
            return new StormServer(postgres, governor, proc, postmaster);
        } catch (Exception | Error e) {
            postgres.close();
            if (governor != null) {
                governor.close();
            }
            throw e;
        }
    }

    Endpoint endpoint() {
        return new Endpoint(postgres.host(), postgres.port(), DemoSchema.DATABASE, DemoSchema.OWNER,
                DemoSchema.OWNER_PASSWORD);
    }

    String host() {
        return postgres.host();
    }

    int port() {
        return postgres.port();
    }

    /** The broker's monitoring connection (a role with pg_monitor, created by DemoSchema). */
    String monitorJdbcUrl() {
        return postgres.jdbcUrl(DemoSchema.DATABASE);
    }

    MemoryGovernor governor() {
        return governor;
    }

    long postmasterPid() {
        return postmasterPid;
    }

    /** The server log's length now; restarts between two such offsets are counted by {@link #restarts}. */
    long logOffset() {
        try {
            return Files.size(postgres.logFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the size of " + postgres.logFile(), e);
        }
    }

    /**
     * Crash restarts the server logged between two offsets. After any child dies of a signal the
     * postmaster ends all sessions and, once every process has gone, logs "all server processes
     * terminated; reinitializing" (src/backend/postmaster/postmaster.c): one line per restart, whether
     * the governor or the kernel killed the backend.
     */
    int restarts(long fromOffset, long toOffset) {
        if (toOffset <= fromOffset) {
            return 0;
        }
        byte[] bytes = new byte[Math.toIntExact(toOffset - fromOffset)];
        try (RandomAccessFile file = new RandomAccessFile(postgres.logFile().toFile(), "r")) {
            file.seek(fromOffset);
            file.readFully(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + postgres.logFile(), e);
        }
        return (int) new String(bytes, StandardCharsets.UTF_8).lines()
                .filter(line -> line.contains("all server processes terminated; reinitializing")).count();
    }

    /** Copies the server log so far (the instance directory goes with the server). */
    void saveLog(Path file) throws IOException {
        Files.copy(postgres.logFile(), file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * Stops the server, then the governor (so it watched until the end), then checks that no process of
     * the server survived; any that did gets SIGKILL and the close throws.
     */
    @Override
    public void close() {
        List<Long> processes = new ArrayList<>(proc.children(postmasterPid));
        processes.add(postmasterPid);
        try {
            postgres.close();
        } finally {
            governor.close();
        }
        List<Long> left = new ArrayList<>();
        for (long pid : processes) {
            ProcessHandle.of(pid).filter(ProcessHandle::isAlive).ifPresent(p -> {
                left.add(pid);
                p.destroyForcibly();
            });
        }
        if (!left.isEmpty()) {
            throw new IllegalStateException("server processes " + left + " outlived the server's stop; killed them");
        }
        governor.failure().ifPresent(failure -> {
            throw new IllegalStateException("the memory governor failed: " + failure, failure);
        });
    }
}
