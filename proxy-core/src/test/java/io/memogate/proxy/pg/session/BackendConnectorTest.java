package io.memogate.proxy.pg.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.proxy.config.TcpKeepalive;
import io.memogate.proxy.config.TlsMode;
import io.memogate.proxy.server.Transport;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ConnectTimeoutException;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.Future;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.NoRouteToHostException;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a client is told when the backend cannot be reached, over real loopback sockets: the cause in a
 * person's words whatever the transport, and a hint that fits it.
 */
class BackendConnectorTest {

    private final List<EventLoopGroup> groups = new ArrayList<>();

    @AfterEach
    void stop() throws InterruptedException {
        for (EventLoopGroup group : groups) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await();
        }
    }

    private ConnectFailure connect(Transport transport, int port, TlsMode mode) throws InterruptedException {
        EventLoopGroup group = transport.newEventLoopGroup(1);
        groups.add(group);
        BackendTarget target = new BackendTarget("tlsreq", "backends[4]", "127.0.0.1", port, Optional.empty(), mode,
                Optional.empty(), "localhost");
        Future<?> connected = new BackendConnector(transport, 1 << 20, TcpKeepalive.SYSTEM_DEFAULTS)
                .connect(group.next(), target, new ChannelInboundHandlerAdapter(), Duration.ofSeconds(10)).await();
        assertThat(connected.isSuccess()).isFalse();
        return ConnectFailure.of(connected.cause(), target);
    }

    private static int closedPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** Netty's epoll says "finishConnect(..) failed with error(-111): Connection refused"; NIO the JDK's words. */
    @Test
    void aRefusedConnectReadsAsAPersonWouldWriteIt() throws Exception {
        int port = closedPort();
        for (Transport transport : List.of(Transport.best(), Transport.nio())) {
            ConnectFailure refused = connect(transport, port, TlsMode.DISABLE);

            assertThat(refused.cause()).as(transport.name()).isEqualTo("connection refused");
            assertThat(refused.hint()).isEqualTo("Check that the server is running and accepts TCP connections on that "
                    + "address.");
        }
    }

    /** A server with ssl = off answers 'N' to SSLRequest: the hint is about TLS, the field spelt as in the file. */
    @Test
    void aServerThatRefusesTlsIsToldAsATlsProblem() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Void> answered = CompletableFuture.runAsync(() -> {
                try (Socket client = server.accept(); InputStream in = client.getInputStream()) {
                    in.readNBytes(8); // SSLRequest: length 8, code 80877103
                    client.getOutputStream().write('N');
                    in.read(); // until the proxy closes
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });

            ConnectFailure refused = connect(Transport.best(), server.getLocalPort(), TlsMode.REQUIRE);

            assertThat(refused.cause()).isEqualTo("the server does not support TLS, but backends[4].tls.mode is require");
            assertThat(refused.hint()).startsWith("The server refused TLS")
                    .contains("set backends[4].tls.mode to prefer or disable").doesNotContain("TCP");
            answered.get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void anUnknownHostIsNamedWithTheFieldThatSetsIt() throws Exception {
        EventLoopGroup group = Transport.nio().newEventLoopGroup(1);
        groups.add(group);
        BackendTarget target = new BackendTarget("main", "backends[0]", "no-such-host.invalid", 5432, Optional.empty(),
                TlsMode.DISABLE, Optional.empty(), "no-such-host.invalid");
        Future<?> connected = new BackendConnector(Transport.nio(), 1 << 20, TcpKeepalive.SYSTEM_DEFAULTS)
                .connect(group.next(), target, new ChannelInboundHandlerAdapter(), Duration.ofSeconds(10)).await();

        ConnectFailure unknown = ConnectFailure.of(connected.cause(), target);

        assertThat(unknown.cause()).isEqualTo("could not translate host name \"no-such-host.invalid\" to address");
        assertThat(unknown.hint()).contains("backends[0].host");
    }

    @Test
    void nativeAndJdkWordingsBecomeTheSame() {
        assertThat(ConnectFailure.plainMessage(new ConnectException(
                "finishConnect(..) failed with error(-111): Connection refused"))).isEqualTo("connection refused");
        assertThat(ConnectFailure.plainMessage(new IOException("wrapped", new NoRouteToHostException(
                "No route to host")))).isEqualTo("no route to host");
        assertThat(ConnectFailure.plainMessage(new ConnectTimeoutException(
                "connection timed out after 10000 ms: /10.0.0.7:5432"))).isEqualTo("connection timed out after 10000 ms");
        assertThat(ConnectFailure.plainMessage(new IOException("TLS alert"))).isEqualTo("TLS alert");
    }
}
