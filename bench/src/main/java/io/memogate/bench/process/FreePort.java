package io.memogate.bench.process;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * A port on 127.0.0.1 that was free a moment ago. Another process could take it before the tool binds;
 * then the tool fails to start and says so in its log, which {@link ChildProcess#awaitPort} reports.
 */
public final class FreePort {

    private FreePort() {
    }

    public static int find() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
