package io.memogate.proxy.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.memogate.proxy.config.NetworkTransport;
import io.memogate.proxy.server.ListenException.Endpoint;
import io.memogate.proxy.server.ListenException.Reason;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.uring.IoUring;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/**
 * The bind failures an operator makes, as each transport reports them: io_uring's and epoll's
 * NativeIoException and NIO's BindException must come out as the same {@link Reason}, with the same advice.
 */
class ServerSocketsTest {

    @ParameterizedTest
    @EnumSource(value = NetworkTransport.class, names = {"IO_URING", "EPOLL", "NIO"})
    void aTakenPortIsAddressInUse(NetworkTransport transport) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            ListenException e = bindFailure(transport, "127.0.0.1", taken.getLocalPort());

            assertThat(e.reason()).isEqualTo(Reason.ADDRESS_IN_USE);
            assertThat(e).hasMessage("cannot listen on 127.0.0.1:" + taken.getLocalPort()
                    + " (listeners[1]): address already in use");
            assertThat(e.explain(field -> "change " + field + " in memogate.yaml")).isEqualTo("cannot listen on 127.0.0.1:"
                    + taken.getLocalPort() + ": address already in use (is another proxy or PgBouncer running? "
                    + "stop it or change listeners[1].port in memogate.yaml)");
        }
    }

    /** The early check a slow command makes before it binds: the same failure, nothing held afterwards. */
    @Test
    void checkFreeFailsAsBindWouldAndHoldsNothing() throws Exception {
        int free;
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            ListenException e = catchThrowableOfType(ListenException.class,
                    () -> ServerSockets.checkFree(Endpoint.CLIENTS, "listeners[0]", "127.0.0.1", taken.getLocalPort()));
            assertThat(e.reason()).isEqualTo(Reason.ADDRESS_IN_USE);
            assertThat(e.explain(field -> "change " + field)).startsWith("cannot listen on 127.0.0.1:"
                    + taken.getLocalPort() + ": address already in use");
            free = taken.getLocalPort();
        }
        ServerSockets.checkFree(Endpoint.CLIENTS, "listeners[0]", "127.0.0.1", free);
        ServerSockets.checkFree(Endpoint.CLIENTS, "listeners[0]", "127.0.0.1", 0); // any free port: not checked
        try (ServerSocket again = new ServerSocket(free, 1, InetAddress.getByName("127.0.0.1"))) {
            assertThat(again.getLocalPort()).as("the check released the port").isEqualTo(free);
        }
    }

    @ParameterizedTest
    @EnumSource(value = NetworkTransport.class, names = {"IO_URING", "EPOLL", "NIO"})
    void anAddressOfAnotherMachineIsNotLocal(NetworkTransport transport) throws Exception {
        // TEST-NET-3 (RFC 5737): assigned to no machine.
        ListenException e = bindFailure(transport, "203.0.113.7", 6432);

        assertThat(e.reason()).isEqualTo(Reason.ADDRESS_NOT_LOCAL);
        assertThat(e.explain(field -> "change " + field)).isEqualTo("cannot listen on 203.0.113.7:6432: not an "
                + "address of this machine (use an address of this machine, 127.0.0.1, or 0.0.0.0 for all: "
                + "change listeners[1].host)");
    }

    @Test
    void aHostNameThatDoesNotResolveIsSaidSo() throws Exception {
        ListenException e = bindFailure(NetworkTransport.NIO, "no-such-host.invalid", 6432);

        assertThat(e.reason()).isEqualTo(Reason.UNKNOWN_HOST);
        assertThat(e.explain(field -> "change " + field)).isEqualTo("cannot listen on no-such-host.invalid:6432: "
                + "the host name does not resolve (change listeners[1].host)");
    }

    @Test
    void aPrivilegedPortIsPermissionDenied() {
        // The tests run as root, who may bind any port: the classification is checked on the JDK's message.
        assertThat(Reason.of(new BindException("Permission denied"))).isEqualTo(Reason.PERMISSION_DENIED);
        assertThat(Reason.of(new IllegalStateException(new BindException("something else")))).isEqualTo(Reason.OTHER);
    }

    private static ListenException bindFailure(NetworkTransport kind, String host, int port)
            throws InterruptedException {
        assumeTrue(kind != NetworkTransport.IO_URING || IoUring.isAvailable(),
                () -> "io_uring cannot be used here: " + IoUring.unavailabilityCause());
        Transport transport = Transport.of(kind);
        EventLoopGroup group = transport.newEventLoopGroup(1);
        try {
            ServerBootstrap bootstrap = new ServerBootstrap().group(group).channel(transport.serverChannelClass())
                    .childHandler(new ChannelInboundHandlerAdapter());
            return catchThrowableOfType(ListenException.class,
                    () -> ServerSockets.bind(bootstrap, Endpoint.CLIENTS, "listeners[1]", host, port));
        } finally {
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS).sync();
        }
    }
}
