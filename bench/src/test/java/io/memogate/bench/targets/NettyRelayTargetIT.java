package io.memogate.bench.targets;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Netty relay the passthrough benchmark measures as the floor of the proxy's stack, started as the benchmark
 * starts it (a JVM of its own), in front of stand-ins for PostgreSQL: what it relays arrives whole and in order
 * both ways, more than the socket buffers hold at once (so its reads wait on the other leg's writability), and a
 * server that hangs up ends the client's connection after what it sent.
 */
class NettyRelayTargetIT {

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void relaysMoreThanTheSocketsHoldWholeBothWays() throws Exception {
        byte[] sent = new byte[16 << 20];
        new Random(7).nextBytes(sent);
        try (ServerSocket echo = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread.ofVirtual().start(() -> serveEach(echo, NettyRelayTargetIT::echo));
            try (NettyRelayTarget target = NettyRelayTarget.start(backendAt(echo));
                    Socket client = new Socket(InetAddress.getLoopbackAddress(), target.port())) {
                client.setSoTimeout(30_000);
                Thread writer = Thread.ofVirtual().start(() -> {
                    try {
                        client.getOutputStream().write(sent);
                    } catch (IOException e) {
                        // The reader below then misses bytes, which the assertion reports.
                    }
                });
                byte[] received = client.getInputStream().readNBytes(sent.length);
                writer.join();

                assertThat(received).as("16 MiB through %s and back", target.description()).isEqualTo(sent);
                assertThat(target.kind()).isEqualTo(TargetKind.NETTY_RELAY);
            }
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aServerThatHangsUpEndsTheClientsConnectionAfterWhatItSent() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread.ofVirtual().start(() -> serveEach(server, socket -> {
                try (socket; OutputStream out = socket.getOutputStream()) {
                    out.write("bye".getBytes(StandardCharsets.US_ASCII));
                }
            }));
            try (NettyRelayTarget target = NettyRelayTarget.start(backendAt(server));
                    Socket client = new Socket(InetAddress.getLoopbackAddress(), target.port())) {
                client.setSoTimeout(30_000);
                InputStream in = client.getInputStream();

                assertThat(new String(in.readNBytes(3), StandardCharsets.US_ASCII)).isEqualTo("bye");
                assertThat(in.read()).as("end of stream after the server hung up").isEqualTo(-1);
            }
        }
    }

    private static Backend backendAt(ServerSocket server) {
        return new Backend("127.0.0.1", server.getLocalPort(), "db", "user", "password");
    }

    @FunctionalInterface
    private interface Connection {
        void serve(Socket socket) throws IOException;
    }

    /** Serves every connection (the target's start probes its port with one) until the socket closes. */
    private static void serveEach(ServerSocket server, Connection connection) {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                Thread.ofVirtual().start(() -> {
                    try {
                        connection.serve(socket);
                    } catch (IOException e) {
                        // The test's own assertions report a relay that did not pass the bytes on.
                    }
                });
            } catch (IOException e) {
                return; // closed at the end of the test
            }
        }
    }

    private static void echo(Socket socket) throws IOException {
        try (socket; InputStream in = socket.getInputStream(); OutputStream out = socket.getOutputStream()) {
            in.transferTo(out);
        }
    }
}
