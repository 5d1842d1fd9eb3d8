package io.memogate.broker.redis;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A private redis-server for one test class, on a free port of 127.0.0.1, keeping nothing on disk; never the
 * machine's own. Registered as {@code @RegisterExtension static final RedisServer redis = new RedisServer();}:
 * started before the class's tests, stopped after them. The tests are skipped, saying why, where no
 * redis-server binary exists ({@code bin/memogate test} installs Debian's package).
 */
public final class RedisServer implements BeforeAllCallback, AfterAllCallback {

    private static final Duration START = Duration.ofSeconds(20);

    private Path binary;
    private Path directory;
    private int port;
    private Process process;

    @Override
    public void beforeAll(ExtensionContext context) throws IOException, InterruptedException {
        Optional<Path> found = find();
        assumeTrue(found.isPresent(), "redis-server not found on PATH or in /usr/bin: the fleet tests need it"
                + " (Debian: apt-get install redis-server; bin/memogate test installs it)");
        binary = found.get();
        directory = Files.createTempDirectory("memogate-redis");
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        startProcess();
    }

    @Override
    public void afterAll(ExtensionContext context) throws InterruptedException {
        if (process != null) {
            close();
        }
    }

    static Optional<Path> find() {
        String path = System.getenv().getOrDefault("PATH", "") + ":/usr/bin:/usr/local/bin";
        return Stream.of(path.split(":")).filter(dir -> !dir.isEmpty()).map(dir -> Path.of(dir, "redis-server"))
                .filter(Files::isExecutable).findFirst();
    }

    public String uri() {
        return "redis://127.0.0.1:" + port;
    }

    /** Stops the server as a crash or a restart would: whatever it held is gone (no persistence). */
    public void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }

    /** Starts it again, empty, on the same port. */
    public void restart() throws IOException, InterruptedException {
        startProcess();
    }

    private void startProcess() throws IOException, InterruptedException {
        process = new ProcessBuilder(List.of(binary.toString(), "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", directory.toString(), "--daemonize", "no"))
                .redirectErrorStream(true)
                .redirectOutput(directory.resolve("redis.log").toFile())
                .start();
        long deadline = System.nanoTime() + START.toNanos();
        while (!answersPing()) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException("redis-server did not start on port " + port + ": "
                        + Files.readString(directory.resolve("redis.log")));
            }
            Thread.sleep(20);
        }
    }

    private boolean answersPing() {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            byte[] reply = in.readNBytes(7);
            return new String(reply, StandardCharsets.US_ASCII).equals("+PONG\r\n");
        } catch (IOException e) {
            return false;
        }
    }

    private void close() throws InterruptedException {
        try {
            stop();
        } finally {
            try (Stream<Path> files = Files.walk(directory)) {
                files.sorted((a, b) -> b.compareTo(a)).forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
