package io.memogate.proxy.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A plain TCP relay between the proxy and a server, so a test can cut the backend connection the
 * way a network failure or a crashed server would: without any protocol message.
 */
final class TcpRelay implements AutoCloseable {

    private final ServerSocket listener;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    /** What happens to connections accepted from now on. */
    private volatile NewConnections newConnections = NewConnections.RELAY;

    /** How the relay treats a new connection: as a working server, one that hangs, or one that is down. */
    enum NewConnections { RELAY, HANG, CLOSE }

    TcpRelay(int targetPort) throws IOException {
        listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> acceptLoop(targetPort), "tcp-relay-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    void newConnections(NewConnections treatment) {
        newConnections = treatment;
    }

    /** Closes every relayed connection at once, both directions. */
    void cutAll() throws IOException {
        for (Socket socket : sockets) {
            socket.close();
        }
    }

    private void acceptLoop(int targetPort) {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                sockets.add(client);
                if (newConnections == NewConnections.HANG) {
                    continue; // accepted, never answered
                }
                if (newConnections == NewConnections.CLOSE) {
                    client.close();
                    continue;
                }
                Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                sockets.add(server);
                pump(client, server);
                pump(server, client);
            } catch (IOException e) {
                return; // listener closed
            }
        }
    }

    private static void pump(Socket from, Socket to) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    out.write(buffer, 0, n);
                }
            } catch (IOException e) {
                // cut or closed: end this direction
            } finally {
                try {
                    to.close();
                } catch (IOException ignored) {
                    // already closed
                }
            }
        }, "tcp-relay-pump");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void close() throws IOException {
        listener.close();
        cutAll();
    }
}
