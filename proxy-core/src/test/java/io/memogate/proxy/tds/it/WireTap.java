package io.memogate.proxy.tds.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP relay in front of a port that keeps every byte a client sent through it: what travelled on the wire, for
 * checks of what a network observer between the client and the proxy could read. Test scope only.
 */
final class WireTap implements AutoCloseable {

    private final ServerSocket listening;
    private final int target;
    private final ByteArrayOutputStream sent = new ByteArrayOutputStream();
    private final List<Socket> open = new CopyOnWriteArrayList<>();

    WireTap(int target) throws IOException {
        this.target = target;
        this.listening = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "wire-tap-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return listening.getLocalPort();
    }

    private void accept() {
        while (!listening.isClosed()) {
            try {
                Socket client = listening.accept();
                Socket server = new Socket(InetAddress.getLoopbackAddress(), target);
                open.add(client);
                open.add(server);
                pump(client.getInputStream(), server.getOutputStream(), true, server);
                pump(server.getInputStream(), client.getOutputStream(), false, client);
            } catch (IOException e) {
                return;
            }
        }
    }

    private void pump(InputStream from, OutputStream to, boolean record, Socket closeAtEnd) {
        Thread pump = new Thread(() -> {
            byte[] buffer = new byte[8192];
            try {
                for (int n; (n = from.read(buffer)) > 0; ) {
                    if (record) {
                        synchronized (sent) {
                            sent.write(buffer, 0, n);
                        }
                    }
                    to.write(buffer, 0, n);
                }
            } catch (IOException e) {
                // either side went away
            } finally {
                try {
                    closeAtEnd.shutdownOutput();
                } catch (IOException e) {
                    // already closed
                }
            }
        }, "wire-tap-pump");
        pump.setDaemon(true);
        pump.start();
    }

    /** Whether a client sent {@code text} in clear, as UTF-16LE (as TDS sends text). */
    boolean sawInClear(String text) {
        byte[] seen;
        synchronized (sent) {
            seen = sent.toByteArray();
        }
        return contains(seen, TdsWire.utf16(text));
    }

    static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int at = 0; at + needle.length <= haystack.length; at++) {
            for (int i = 0; i < needle.length; i++) {
                if (haystack[at + i] != needle[i]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    @Override
    public void close() throws IOException {
        listening.close();
        for (Socket socket : open) {
            socket.close();
        }
    }
}
