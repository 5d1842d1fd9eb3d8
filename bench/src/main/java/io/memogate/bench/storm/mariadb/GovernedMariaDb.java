package io.memogate.bench.storm.mariadb;

import io.memogate.bench.storm.governor.MemoryGovernor;
import io.memogate.bench.storm.governor.ProcFs;
import io.memogate.broker.probe.mysql.MariaDbServer;
import io.memogate.proxy.mysql.demo.MariaDbDemoSchema;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MariaDB storm's server on an emulated smaller host: a private MariaDB with the demo warehouse, and the
 * kernel's OOM killer for it. MariaDB is one process whose threads serve every connection, so where
 * {@link MemoryGovernor} kills PostgreSQL's largest backend, this one kills the whole server when its private
 * memory (RssAnon) exceeds the limit, as the kernel would, and starts it again on its data directory, as a
 * service manager would: every session is lost, and the restart is counted.
 *
 * <p>If sampling fails, the server is killed and left down: a storm must never run unwatched.
 */
final class GovernedMariaDb implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(GovernedMariaDb.class);

    /** The sysbench tables' database, next to the demo's. */
    static final String SYSBENCH_DATABASE = "sbtest";

    private final MariaDbServer server;
    private final ProcFs proc = new ProcFs();
    private final long limitBytes;
    private final Duration interval;
    private final AtomicInteger restarts = new AtomicInteger();
    private final AtomicLong peakBytes = new AtomicLong();
    private volatile boolean running = true;
    private volatile Throwable failure;
    private final Thread thread;

    private GovernedMariaDb(MariaDbServer server, long limitBytes, Duration interval) {
        this.server = server;
        this.limitBytes = limitBytes;
        this.interval = interval;
        this.thread = Thread.ofPlatform().name("mariadb-governor").daemon().unstarted(this::watch);
    }

    /** Starts the server with the demo warehouse, then its governor. */
    static GovernedMariaDb start(long limitBytes, Duration interval) throws IOException, InterruptedException {
        MariaDbServer server = MariaDbServer.start(List.of("--max-connections=200"));
        try {
            new MariaDbDemoSchema(server).load();
            server.asRoot("CREATE DATABASE " + SYSBENCH_DATABASE + ";\n"
                    + "GRANT ALL ON " + SYSBENCH_DATABASE + ".* TO " + MariaDbDemoSchema.OWNER + "@'%';");
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
        GovernedMariaDb governed = new GovernedMariaDb(server, limitBytes, interval);
        governed.thread.start();
        return governed;
    }

    int port() {
        return server.port();
    }

    /** Server restarts since the start: kills by the governor, and ends of the server's own. */
    int restarts() {
        return restarts.get();
    }

    /** The highest private memory seen since the last call, which starts the next measurement. */
    long takePeakBytes() {
        return peakBytes.getAndSet(0);
    }

    /**
     * Stops the server cleanly and starts it again, so that a mode starts without the memory the last one left in
     * the server's allocator (glibc keeps what a thread freed for that thread).
     */
    synchronized void freshProcess() throws IOException, InterruptedException {
        server.stop();
        server.restart();
        peakBytes.set(0);
    }

    private void watch() {
        while (running) {
            try {
                synchronized (this) {
                    sample();
                }
                LockSupport.parkNanos(interval.toNanos());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (IOException | RuntimeException e) {
                failure = e;
                LOG.error("the governor failed; the server is stopped", e);
                proc.kill(server.pid());
                return;
            }
        }
    }

    private void sample() throws IOException, InterruptedException {
        if (!server.isAlive()) {
            LOG.warn("mariadbd ended by itself; starting it again");
            restart();
            return;
        }
        OptionalLong bytes = proc.privateBytes(server.pid());
        if (bytes.isPresent()) {
            peakBytes.accumulateAndGet(bytes.getAsLong(), Math::max);
            if (bytes.getAsLong() > limitBytes) {
                LOG.info("mariadbd holds {} MiB of private memory, over the emulated host's {} MiB: killed",
                        bytes.getAsLong() >> 20, limitBytes >> 20);
                proc.kill(server.pid());
                ProcessHandle.of(server.pid()).ifPresent(p -> p.onExit().join());
                restart();
            }
        }
    }

    private void restart() throws IOException, InterruptedException {
        if (!running) {
            return;
        }
        restarts.incrementAndGet();
        server.restart();
    }

    /** Why the governor stopped watching, if it did. */
    Throwable failure() {
        return failure;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        running = false;
        thread.interrupt();
        thread.join(TimeUnit.SECONDS.toMillis(120));
        server.close();
    }
}
