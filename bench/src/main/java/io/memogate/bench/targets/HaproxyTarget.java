package io.memogate.bench.targets;

import io.memogate.bench.process.ChildProcess;
import io.memogate.bench.process.FreePort;
import io.memogate.bench.process.TempDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;

/**
 * HAProxy as a plain TCP relay (mode tcp: bytes in, bytes out, no protocol parsing): the floor any
 * proxy hop costs on this machine. Foreground (-db), no logging, timeouts long enough never to cut a run.
 * {@link TargetKind#HAPROXY} has HAProxy's default threading, one thread per core as Memogate's event loops;
 * {@link TargetKind#HAPROXY_ONE_THREAD} has one thread.
 */
public final class HaproxyTarget extends ProcessTarget {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(15);

    private final String version;

    private HaproxyTarget(TargetKind kind, String version, int port, ChildProcess process, TempDirectory directory) {
        super(kind, port, process, directory);
        this.version = version;
    }

    /**
     * Starts HAProxy as {@code kind}: {@link TargetKind#HAPROXY}, {@link TargetKind#HAPROXY_ONE_THREAD} or
     * {@link TargetKind#HAPROXY_UNIX} (then {@code backend}'s host is the server's socket directory).
     */
    public static HaproxyTarget start(TargetKind kind, Path executable, Backend backend)
            throws IOException, InterruptedException {
        OptionalInt threads = switch (kind) {
            case HAPROXY, HAPROXY_UNIX -> OptionalInt.empty();
            case HAPROXY_ONE_THREAD -> OptionalInt.of(1);
            default -> throw new IllegalArgumentException(kind + " is not HAProxy");
        };
        String version = ToolVersion.of(executable, "-v");
        TempDirectory directory = TempDirectory.create("memogate-bench-haproxy-");
        try {
            int port = FreePort.find();
            Path config = directory.resolve("haproxy.cfg");
            Files.writeString(config, config(backend, port, threads));
            Path log = directory.resolve("stdout.log");
            ChildProcess process = ChildProcess.start("haproxy",
                    List.of(executable.toString(), "-db", "-f", config.toString()), directory.path(), log);
            process.awaitPortOrStop(port, START_TIMEOUT);
            return new HaproxyTarget(kind, version, port, process, directory);
        } catch (IOException | InterruptedException | RuntimeException e) {
            directory.close();
            throw e;
        }
    }

    static String config(Backend backend, int port, OptionalInt threads) {
        String threading = threads.isPresent() ? "    nbthread " + threads.getAsInt() + "\n" : "";
        return """
                global
                    maxconn 4096
                %s
                defaults
                    mode tcp
                    timeout connect 5s
                    timeout client 1h
                    timeout server 1h

                listen postgres
                    bind 127.0.0.1:%d
                    server postgres %s
                """.formatted(threading, port, backend.isUnixSocket() ? backend.unixSocket().toString()
                        : backend.host() + ":" + backend.port());
    }

    @Override
    public String description() {
        return version.replaceFirst(" - https?://\\S+", "") + " (pid " + pid() + "), mode tcp, "
                + (kind() == TargetKind.HAPROXY_ONE_THREAD ? "one thread" : "default threads")
                + (kind() == TargetKind.HAPROXY_UNIX ? ", to the server's Unix socket" : "") + ", on 127.0.0.1:" + port();
    }
}
