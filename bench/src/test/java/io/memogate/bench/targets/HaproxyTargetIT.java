package io.memogate.bench.targets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.memogate.bench.process.Executables;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Debian's HAProxy started as each HAProxy target, in front of an echo server standing in for PostgreSQL:
 * it relays bytes both ways, to TCP or to a Unix socket as its kind says, and runs with the threads its
 * column in the report claims. Skipped where
 * HAProxy is not installed (the benchmark skips the target there too).
 */
class HaproxyTargetIT {

    @ParameterizedTest
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    @EnumSource(value = TargetKind.class, names = {"HAPROXY", "HAPROXY_ONE_THREAD"})
    void relaysBytesWithTheThreadsItsKindNames(TargetKind kind) throws Exception {
        Optional<Path> haproxy = Executables.fromEnvironment().find("haproxy");
        assumeThat(haproxy).as("haproxy is not installed (Debian package haproxy)").isPresent();
        try (ServerSocket echo = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread.ofVirtual().start(() -> echoEach(echo));
            Backend backend = new Backend("127.0.0.1", echo.getLocalPort(), "db", "user", "password");
            try (HaproxyTarget target = HaproxyTarget.start(kind, haproxy.get(), backend);
                    Socket client = new Socket(InetAddress.getLoopbackAddress(), target.port())) {
                client.setSoTimeout(10_000);
                client.getOutputStream().write("ping".getBytes(StandardCharsets.US_ASCII));
                assertThat(new String(client.getInputStream().readNBytes(4), StandardCharsets.US_ASCII)).isEqualTo("ping");

                long threads;
                try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(target.pid()), "task"))) {
                    threads = tasks.count();
                }
                int expected = kind == TargetKind.HAPROXY_ONE_THREAD ? 1 : Runtime.getRuntime().availableProcessors();
                assertThat(threads).as("threads of %s", target.description()).isEqualTo(expected);
                assertThat(target.kind()).isEqualTo(kind);
            }
        }
    }

    /** haproxy-unix: the server named by its socket directory, the relay connects to the socket in it. */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void theUnixKindRelaysToTheSocketInTheServersDirectory(@TempDir Path directory) throws Exception {
        Optional<Path> haproxy = Executables.fromEnvironment().find("haproxy");
        assumeThat(haproxy).as("haproxy is not installed (Debian package haproxy)").isPresent();
        try (ServerSocketChannel echo = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            echo.bind(UnixDomainSocketAddress.of(directory.resolve(".s.PGSQL.5432")));
            Thread.ofVirtual().start(() -> echoEach(echo));
            Backend tcp = new Backend("127.0.0.1", 5432, "db", "user", "password", Optional.of(directory));
            try (HaproxyTarget target = HaproxyTarget.start(TargetKind.HAPROXY_UNIX, haproxy.get(),
                    tcp.overUnixSocket().orElseThrow());
                    Socket client = new Socket(InetAddress.getLoopbackAddress(), target.port())) {
                client.setSoTimeout(10_000);
                client.getOutputStream().write("ping".getBytes(StandardCharsets.US_ASCII));
                assertThat(new String(client.getInputStream().readNBytes(4), StandardCharsets.US_ASCII)).isEqualTo("ping");
                assertThat(target.description()).contains("to the server's Unix socket");
            }
        }
    }

    private static void echoEach(ServerSocketChannel server) {
        while (server.isOpen()) {
            try {
                SocketChannel channel = server.accept();
                Thread.ofVirtual().start(() -> {
                    try (channel; InputStream in = Channels.newInputStream(channel);
                         OutputStream out = Channels.newOutputStream(channel)) {
                        in.transferTo(out);
                    } catch (IOException e) {
                        // The test's own assertions report a relay that did not echo.
                    }
                });
            } catch (IOException e) {
                return; // closed at the end of the test
            }
        }
    }

    /** Echoes every connection (the target's start probes its port with one) until the socket closes. */
    private static void echoEach(ServerSocket server) {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                Thread.ofVirtual().start(() -> echo(socket));
            } catch (IOException e) {
                return; // closed at the end of the test
            }
        }
    }

    private static void echo(Socket socket) {
        try (socket; InputStream in = socket.getInputStream(); OutputStream out = socket.getOutputStream()) {
            in.transferTo(out);
        } catch (IOException e) {
            // The test's own assertions report a relay that did not echo.
        }
    }
}
