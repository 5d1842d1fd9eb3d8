package io.memogate.bench.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

/**
 * The Redis a benchmark's fleet shares its gateways through: a private {@code redis-server} on a free port of
 * 127.0.0.1, without persistence, in a directory of its own, started for the measurement and stopped by its
 * pid after it; never the machine's own Redis.
 */
public final class PrivateRedis implements AutoCloseable {

    private static final Duration START = Duration.ofSeconds(15);

    private final TempDirectory directory;
    private final ChildProcess process;
    private final int port;

    private PrivateRedis(TempDirectory directory, ChildProcess process, int port) {
        this.directory = directory;
        this.process = process;
        this.port = port;
    }

    public static PrivateRedis start() throws IOException, InterruptedException {
        Path binary = binary();
        TempDirectory directory = TempDirectory.create("memogate-bench-redis-");
        try {
            int port = FreePort.find();
            ChildProcess process = ChildProcess.start("redis-server", List.of(binary.toString(), "--bind", "127.0.0.1",
                            "--port", String.valueOf(port), "--save", "", "--appendonly", "no",
                            "--dir", directory.path().toString()),
                    directory.path(), directory.resolve("redis.log"));
            process.awaitPortOrStop(port, START);
            return new PrivateRedis(directory, process, port);
        } catch (IOException | InterruptedException | RuntimeException e) {
            directory.close();
            throw e;
        }
    }

    /** redis-server from the PATH; Debian's package puts it in /usr/bin. */
    private static Path binary() {
        String path = System.getenv().getOrDefault("PATH", "/usr/bin");
        return Stream.concat(Stream.of(path.split(":")), Stream.of("/usr/bin"))
                .map(dir -> Path.of(dir, "redis-server"))
                .filter(Files::isExecutable)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("a fleet needs redis-server 7 or later on the PATH"
                        + " (Debian: apt-get install redis-server)"));
    }

    public String uri() {
        return "redis://127.0.0.1:" + port;
    }

    public int port() {
        return port;
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
