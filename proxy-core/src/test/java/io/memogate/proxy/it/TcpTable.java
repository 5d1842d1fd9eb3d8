package io.memogate.proxy.it;

import io.memogate.proxy.testing.Await;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The kernel's tables of this machine's TCP sockets (/proc/net/tcp, tcp6), to see from outside what a
 * socket option did: which established sockets run a keepalive timer, and when it fires.
 */
final class TcpTable {

    /**
     * One established socket: its ports; the bytes written to it that the peer has not acknowledged, and
     * those received that the application has not read; if its keepalive timer runs, the seconds until it fires.
     */
    record Socket(int localPort, int remotePort, long sendQueue, long receiveQueue, boolean keepaliveTimer,
                  double timerSeconds) {
    }

    private static final String ESTABLISHED = "01";
    private static final String KEEPALIVE_TIMER = "02";
    /** The timer is printed in clock ticks; Linux's USER_HZ is 100 on every architecture it runs on. */
    private static final double TICKS_PER_SECOND = 100;

    private TcpTable() {
    }

    /** From /proc/net/tcp and tcp6: Java and Netty open IPv6 sockets where they can, 127.0.0.1 mapped. */
    static List<Socket> established() throws IOException {
        List<String> lines = new ArrayList<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            Path path = Path.of(table);
            if (Files.exists(path)) {
                List<String> rows = Files.readAllLines(path);
                lines.addAll(rows.subList(1, rows.size())); // after the header
            }
        }
        return lines.stream()
                .map(line -> line.strip().split("\\s+"))
                .filter(fields -> fields[3].equals(ESTABLISHED))
                .map(fields -> {
                    String[] queues = fields[4].split(":"); // "00000000:00020000": none unacknowledged, 128 KiB unread
                    String[] timer = fields[5].split(":"); // "02:00000BB7": keepalive, 0xbb7 ticks to go
                    return new Socket(port(fields[1]), port(fields[2]), Long.parseLong(queues[0], 16),
                            Long.parseLong(queues[1], 16), timer[0].equals(KEEPALIVE_TIMER),
                            Long.parseLong(timer[1], 16) / TICKS_PER_SECOND);
                })
                .toList();
    }

    /**
     * The established sockets {@code which} selects, once each runs its keepalive timer, or as they are
     * after 5 seconds. Right after traffic a socket shows its retransmission timer instead (the table
     * shows one timer), until the peer's delayed ACK comes in.
     */
    static List<Socket> awaitKeepalive(Predicate<Socket> which) throws IOException, InterruptedException {
        Await.holdsWithin(Duration.ofSeconds(5), () -> {
            List<Socket> selected = established().stream().filter(which).toList();
            return !selected.isEmpty() && selected.stream().allMatch(Socket::keepaliveTimer);
        });
        return established().stream().filter(which).toList();
    }

    /** "0100007F:C351" is 127.0.0.1:50001; an IPv6 address is longer, its port the same. */
    private static int port(String address) {
        return Integer.parseInt(address.substring(address.indexOf(':') + 1), 16);
    }
}
