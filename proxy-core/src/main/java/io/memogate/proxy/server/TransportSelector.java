package io.memogate.proxy.server;

import io.memogate.proxy.config.NetworkTransport;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.uring.IoUring;
import java.util.List;
import java.util.Optional;

/**
 * Turns {@code network.transport} into the transport this machine can run. A native transport may be
 * present in the jar and still refused at run time: io_uring by {@code kernel.io_uring_disabled}, an old
 * kernel or a container's seccomp profile (Docker's default blocks io_uring_setup), epoll on anything
 * but Linux. Such a wish falls back to the next transport in {@link #candidates} rather than stopping
 * the proxy, and the selection says why, for one log line. Availability is asked of {@link NativeSupport},
 * so that the fallbacks can be tested on a machine where everything loads.
 */
public final class TransportSelector {

    /** Why each native transport cannot be used here; empty when it can. */
    public interface NativeSupport {
        Optional<Throwable> ioUringUnavailable();

        Optional<Throwable> epollUnavailable();

        /** What Netty finds when it loads its native libraries in this process. */
        NativeSupport NETTY = new NativeSupport() {
            @Override
            public Optional<Throwable> ioUringUnavailable() {
                return IoUring.isAvailable() ? Optional.empty() : Optional.of(IoUring.unavailabilityCause());
            }

            @Override
            public Optional<Throwable> epollUnavailable() {
                return Epoll.isAvailable() ? Optional.empty() : Optional.of(Epoll.unavailabilityCause());
            }
        };
    }

    /**
     * @param transport what the proxy will use: never AUTO
     * @param fallback when that is not what the configuration named, a sentence saying what was asked,
     *     why it cannot be used, and what is used instead
     */
    public record Selection(NetworkTransport transport, Optional<String> fallback) {}

    private TransportSelector() {
    }

    public static Selection select(NetworkTransport wanted, NativeSupport support) {
        StringBuilder refused = new StringBuilder();
        for (NetworkTransport candidate : candidates(wanted)) {
            Optional<Throwable> unavailable = switch (candidate) {
                case IO_URING -> support.ioUringUnavailable();
                case EPOLL -> support.epollUnavailable();
                case NIO, AUTO -> Optional.empty();
            };
            if (unavailable.isPresent()) {
                refused.append(refused.isEmpty() ? "" : "; ").append(candidate.configName())
                        .append(" cannot be used here: ").append(reason(unavailable.get()));
                continue;
            }
            // AUTO promises no particular transport: using NIO where epoll does not exist is not news.
            Optional<String> fallback = wanted == NetworkTransport.AUTO || refused.isEmpty() ? Optional.empty()
                    : Optional.of("network.transport is " + wanted.configName() + ", but " + refused
                            + "; using " + candidate.configName() + hint(wanted));
            return new Selection(candidate, fallback);
        }
        throw new IllegalStateException("NIO is always a candidate"); // candidates() ends every list with NIO
    }

    /**
     * In order of preference. AUTO stays on epoll: io_uring is only used when asked for, since where it is
     * blocked (most containers) the attempt costs a failed ring set-up and a warning on every start.
     */
    static List<NetworkTransport> candidates(NetworkTransport wanted) {
        return switch (wanted) {
            case IO_URING -> List.of(NetworkTransport.IO_URING, NetworkTransport.EPOLL, NetworkTransport.NIO);
            case EPOLL, AUTO -> List.of(NetworkTransport.EPOLL, NetworkTransport.NIO);
            case NIO -> List.of(NetworkTransport.NIO);
        };
    }

    /** Netty's causes wrap the system call's error; the innermost message names it. */
    private static String reason(Throwable cause) {
        Throwable innermost = cause;
        while (innermost.getCause() != null && innermost.getCause() != innermost) {
            innermost = innermost.getCause();
        }
        String message = innermost.getMessage();
        return message == null || message.isBlank() ? innermost.getClass().getSimpleName() : message;
    }

    private static String hint(NetworkTransport wanted) {
        return wanted == NetworkTransport.IO_URING
                ? " (io_uring needs Linux 5.14 or later, sysctl kernel.io_uring_disabled=0 and, in a container, a "
                        + "seccomp profile that allows io_uring_setup, io_uring_enter and io_uring_register)"
                : "";
    }
}
