package io.memogate.proxy.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.proxy.config.NetworkTransport;
import io.memogate.proxy.server.TransportSelector.NativeSupport;
import io.memogate.proxy.server.TransportSelector.Selection;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which transport each network.transport gets, on machines that allow more or less than this one. */
class TransportSelectorTest {

    /** As Netty reports io_uring_setup refused by seccomp, wrapped as its availability check wraps it. */
    private static final Throwable SECCOMP = new IllegalStateException("failed to create io_uring ring fd",
            new RuntimeException("Operation not permitted"));
    private static final Throwable NOT_LINUX = new UnsupportedOperationException("Native transport not available");

    @Test
    void ioUringWhereItWorks() {
        Selection selection = TransportSelector.select(NetworkTransport.IO_URING, support(null, null));

        assertThat(selection.transport()).isEqualTo(NetworkTransport.IO_URING);
        assertThat(selection.fallback()).isEmpty();
    }

    @Test
    void ioUringRefusedFallsBackToEpollAndSaysWhy() {
        Selection selection = TransportSelector.select(NetworkTransport.IO_URING, support(SECCOMP, null));

        assertThat(selection.transport()).isEqualTo(NetworkTransport.EPOLL);
        assertThat(selection.fallback()).hasValueSatisfying(line -> assertThat(line)
                .startsWith("network.transport is io_uring, but io_uring cannot be used here: Operation not permitted; "
                        + "using epoll (io_uring needs Linux 5.14 or later, sysctl kernel.io_uring_disabled=0")
                .contains("seccomp"));
    }

    @Test
    void withoutEitherNativeTransportNioIsLeft() {
        Selection selection = TransportSelector.select(NetworkTransport.IO_URING, support(SECCOMP, NOT_LINUX));

        assertThat(selection.transport()).isEqualTo(NetworkTransport.NIO);
        assertThat(selection.fallback()).hasValueSatisfying(line -> assertThat(line).startsWith(
                "network.transport is io_uring, but io_uring cannot be used here: Operation not permitted; epoll cannot "
                        + "be used here: Native transport not available; using nio"));
    }

    @Test
    void epollRefusedFallsBackToNio() {
        Selection selection = TransportSelector.select(NetworkTransport.EPOLL, support(null, NOT_LINUX));

        assertThat(selection.transport()).isEqualTo(NetworkTransport.NIO);
        assertThat(selection.fallback()).hasValue(
                "network.transport is epoll, but epoll cannot be used here: Native transport not available; using nio");
    }

    /** The default stays off io_uring, which most containers block, and reports nothing when it picks NIO. */
    @Test
    void autoIsEpollElseNioWithoutAWord() {
        assertThat(TransportSelector.select(NetworkTransport.AUTO, support(null, null)))
                .isEqualTo(new Selection(NetworkTransport.EPOLL, Optional.empty()));
        assertThat(TransportSelector.select(NetworkTransport.AUTO, support(SECCOMP, NOT_LINUX)))
                .isEqualTo(new Selection(NetworkTransport.NIO, Optional.empty()));
    }

    @Test
    void nioIsNeverRefused() {
        assertThat(TransportSelector.select(NetworkTransport.NIO, support(SECCOMP, NOT_LINUX)))
                .isEqualTo(new Selection(NetworkTransport.NIO, Optional.empty()));
    }

    /** {@code null}: available. */
    private static NativeSupport support(Throwable ioUring, Throwable epoll) {
        return new NativeSupport() {
            @Override
            public Optional<Throwable> ioUringUnavailable() {
                return Optional.ofNullable(ioUring);
            }

            @Override
            public Optional<Throwable> epollUnavailable() {
                return Optional.ofNullable(epoll);
            }
        };
    }
}
