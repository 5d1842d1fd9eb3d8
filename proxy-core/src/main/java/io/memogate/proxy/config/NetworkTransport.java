package io.memogate.proxy.config;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Which socket implementation the proxy asks for ({@code network.transport}). The choice is a wish: a
 * native transport the kernel or a container's seccomp profile does not allow is replaced by the next
 * one that works when the proxy starts, with a log line saying why (see the server's TransportSelector).
 */
public enum NetworkTransport {
    /** The fastest transport known to work everywhere it loads: epoll, else NIO. */
    AUTO("auto"),
    /** Linux io_uring (kernel 5.14 or later); blocked by Docker's default seccomp profile. */
    IO_URING("io_uring"),
    /** Linux epoll through Netty's native library. */
    EPOLL("epoll"),
    /** The JDK's NIO selector: no native library, any operating system. */
    NIO("nio");

    private final String configName;

    NetworkTransport(String configName) {
        this.configName = configName;
    }

    /** The word used in the YAML file, e.g. {@code io_uring}. */
    public String configName() {
        return configName;
    }

    /** The transport spelled {@code word} in the YAML file (exact, lowercase). */
    public static Optional<NetworkTransport> fromConfigName(String word) {
        return Arrays.stream(values()).filter(t -> t.configName.equals(word)).findFirst();
    }

    /** "auto, io_uring, epoll, nio": for error messages. */
    static String configNames() {
        return Arrays.stream(values()).map(NetworkTransport::configName).collect(Collectors.joining(", "));
    }

    @Override
    public String toString() {
        return configName;
    }
}
