package io.memogate.broker.redis;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A primary, its replica and one Sentinel watching them, each a private redis-server on a free port of
 * 127.0.0.1 keeping nothing on disk but the Sentinel's own file; never the machine's Redis. Registered as a
 * JUnit extension for one test class; skipped, saying why, without a redis-server binary.
 */
final class SentinelGroup implements BeforeAllCallback, AfterAllCallback {

    static final String PRIMARY = "memogate";

    private final List<Process> processes = new ArrayList<>();
    private Path binary;
    private Path directory;
    private int primaryPort;
    private int replicaPort;
    private int sentinelPort;
    private Process primary;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        binary = RedisServer.find().orElse(null);
        assumeTrue(binary != null, "redis-server not found on PATH or in /usr/bin: the fleet tests need it"
                + " (Debian: apt-get install redis-server; bin/memogate test installs it)");
        directory = Files.createTempDirectory("memogate-sentinel");
        primaryPort = freePort();
        replicaPort = freePort();
        sentinelPort = freePort();
        primary = start("primary", "--port", Integer.toString(primaryPort));
        start("replica", "--port", Integer.toString(replicaPort), "--replicaof", "127.0.0.1",
                Integer.toString(primaryPort));
        Path conf = directory.resolve("sentinel.conf");
        Files.writeString(conf, String.join("\n", "port " + sentinelPort, "bind 127.0.0.1",
                "dir " + directory, "sentinel monitor " + PRIMARY + " 127.0.0.1 " + primaryPort + " 1",
                "sentinel down-after-milliseconds " + PRIMARY + " 1000",
                // A failover that finds no replica fit (its INFO late on a loaded machine) is tried again after
                // twice this: the default would leave the fleet without a primary for longer than its lease.
                "sentinel failover-timeout " + PRIMARY + " 3000", ""));
        processes.add(new ProcessBuilder(binary.toString(), conf.toString(), "--sentinel")
                .redirectErrorStream(true).redirectOutput(directory.resolve("sentinel.log").toFile()).start());
        Eventually.until("the replica follows the primary", () -> answers(() -> ask(replicaPort,
                redis -> redis.sync().info("replication")).contains("master_link_status:up")));
        Eventually.until("the Sentinel knows the replica", () -> answers(() -> askSentinel(
                sentinel -> sentinel.sync().replicas(PRIMARY)).size() == 1));
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        for (Process p : processes) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        if (directory != null) {
            try (Stream<Path> files = Files.walk(directory)) {
                files.sorted((a, b) -> b.compareTo(a)).forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** The fleet's URI: the Sentinel, and the primary it watches. */
    String uri() {
        return "redis-sentinel://127.0.0.1:" + sentinelPort + "#" + PRIMARY;
    }

    /** Waits until the replica has every write the primary took so far. */
    void replicated() throws InterruptedException {
        Eventually.until("the replica has the primary's writes", () -> answers(() -> ask(primaryPort,
                redis -> redis.sync().waitForReplication(1, 1000)) == 1));
    }

    /**
     * Cuts the replica off its primary, as a partition would: pointed at a port nobody listens on, it keeps
     * what it has and takes no more of the primary's writes, until the Sentinel promotes it.
     */
    void detachReplica() throws IOException, InterruptedException {
        int nowhere = freePort();
        ask(replicaPort, redis -> redis.sync().replicaof("127.0.0.1", nowhere));
        Eventually.until("the replica is cut off its primary", () -> answers(() -> ask(replicaPort,
                redis -> redis.sync().info("replication")).contains("master_link_status:down")));
    }

    /** Statements waiting for SMALL in every fleet, as the replica has them. */
    long replicaWaiting() {
        return ask(replicaPort, redis -> redis.sync().keys("memogate:*:q:1").stream()
                .mapToLong(queue -> redis.sync().zcard(queue)).sum());
    }

    /** Kills the primary as a crash would (SIGKILL). */
    void killPrimary() throws InterruptedException {
        primary.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }

    /** True once the Sentinel names the replica as the primary. */
    boolean promoted() {
        return answers(() -> askSentinel(sentinel -> sentinel.sync().getMasterAddrByName(PRIMARY))
                instanceof InetSocketAddress now && now.getPort() == replicaPort);
    }

    /** The condition; false while the server it asks is not up yet (or no longer). */
    private static boolean answers(BooleanSupplier condition) {
        try {
            return condition.getAsBoolean();
        } catch (RedisException e) {
            return false;
        }
    }

    private <T> T ask(int port, Function<StatefulRedisConnection<String, String>, T> question) {
        RedisClient client = RedisClient.create(local(port));
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            return question.apply(connection);
        } finally {
            client.shutdown();
        }
    }

    private <T> T askSentinel(Function<StatefulRedisSentinelConnection<String, String>, T> question) {
        RedisClient client = RedisClient.create(local(sentinelPort));
        try (StatefulRedisSentinelConnection<String, String> connection = client.connectSentinel()) {
            return question.apply(connection);
        } finally {
            client.shutdown();
        }
    }

    private static RedisURI local(int port) {
        return RedisURI.builder().withHost("127.0.0.1").withPort(port).withTimeout(Duration.ofSeconds(5)).build();
    }

    private Process start(String name, String... args) throws IOException {
        Path dir = Files.createDirectories(directory.resolve(name));
        List<String> command = new ArrayList<>(List.of(binary.toString(), "--bind", "127.0.0.1", "--save", "",
                "--appendonly", "no", "--dir", dir.toString(), "--daemonize", "no"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("redis.log").toFile()).start();
        processes.add(process);
        return process;
    }

    private static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0)) {
            return probe.getLocalPort();
        }
    }
}
