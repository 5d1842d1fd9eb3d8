package io.memogate.proxy.it.fuzz;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Random;

/**
 * One run of a case on a fresh connection: a normal login, then the case's bytes in writes of random sizes,
 * then the end of the client's output (a half-close: a length word that announced more bytes then ends in
 * end-of-file, as for a client that vanished), then everything the peer sends until it closes the
 * connection or the deadline passes.
 *
 * <p>When to half-close is the caller's {@link HalfClose}: at once against PostgreSQL, which reads what it
 * was sent in order and sees the end of the input only after all of it; through the proxy only once it has
 * relayed as many answers as PostgreSQL gave, since the proxy takes the end of a client's input as the
 * client gone (docs/admission.md, "Errors the proxy itself sends", last paragraph) and may drop what is still to come.
 */
final class WireRun {

    static final Duration DEADLINE = Duration.ofSeconds(20);

    /** When the run ends its output. */
    @FunctionalInterface
    interface HalfClose {
        /**
         * @param answers the number of whole messages read so far
         * @return true to half-close now
         */
        boolean now(int answers);
    }

    /** How the connection ended, seen from the client. */
    enum End {
        /** The peer closed it before the client ended its output. */
        CLOSED_BY_PEER,
        /** The client half-closed first, then the peer closed. */
        CLOSED_AFTER_HALF_CLOSE,
        /** The peer reset it (it closed with bytes of the client's unread). */
        RESET,
        /** Neither within {@link #DEADLINE}: a hang. */
        DEADLINE
    }

    /**
     * What the client read after login, and how the connection ended.
     *
     * @param waitedOut the half-close came because the answers it waited for did not within their time
     */
    record Result(byte[] replies, End end, boolean waitedOut, long millis) {}

    private WireRun() {}

    /**
     * @param user           the role; with a password, pg_hba must ask for it in cleartext or trust the role
     * @param waitForAnswers how long {@code halfClose} may keep the output open
     * @param options        the StartupMessage's parameters after user and database, name then value
     */
    static Result run(int port, String user, String password, FuzzCase fuzzCase, HalfClose halfClose,
                      Duration waitForAnswers, String... options) throws IOException, InterruptedException {
        long started = System.nanoTime();
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout((int) DEADLINE.toMillis());
            login(socket, user, password, options);
            Reader reader = new Reader(socket.getInputStream());
            Thread thread = Thread.ofVirtual().start(reader);
            send(socket.getOutputStream(), fuzzCase.bytes(), fuzzCase.chunks());
            boolean halfClosed = false;
            boolean waitedOut = false;
            long answersDeadline = System.nanoTime() + waitForAnswers.toNanos();
            while (thread.isAlive() && !halfClosed) {
                if (!halfClose.now(reader.messages())) {
                    waitedOut = System.nanoTime() > answersDeadline;
                    if (!waitedOut) {
                        thread.join(2);
                        continue;
                    }
                }
                shutdownOutput(socket);
                halfClosed = true;
            }
            thread.join(Math.max(1, DEADLINE.toMillis() - (System.nanoTime() - started) / 1_000_000));
            End end = thread.isAlive() ? End.DEADLINE
                    : reader.reset ? End.RESET
                    : halfClosed ? End.CLOSED_AFTER_HALF_CLOSE : End.CLOSED_BY_PEER;
            socket.close(); // ends the reader of a hung run
            thread.join();
            return new Result(reader.bytes(), end, waitedOut, (System.nanoTime() - started) / 1_000_000);
        }
    }

    private static void shutdownOutput(Socket socket) {
        try {
            socket.shutdownOutput();
        } catch (IOException alreadyClosed) {
            // the peer reset the connection meanwhile: the reader sees it
        }
    }

    /** Writes in chunks of 1 to 64 bytes, sometimes a larger piece; stops when the peer has closed. */
    private static void send(OutputStream out, byte[] bytes, Random chunks) {
        int at = 0;
        try {
            while (at < bytes.length) {
                int size = chunks.nextInt(8) == 0 ? 1 + chunks.nextInt(1024) : 1 + chunks.nextInt(64);
                int end = Math.min(bytes.length, at + size);
                out.write(bytes, at, end - at);
                out.flush();
                at = end;
            }
        } catch (IOException peerClosed) {
            // the peer closed (a FATAL, a Terminate): what it answered before is still read
        }
    }

    private static void login(Socket socket, String user, String password, String... options) throws IOException {
        String[] parameters = new String[4 + options.length];
        parameters[0] = "user";
        parameters[1] = user;
        parameters[2] = "database";
        parameters[3] = "demo";
        System.arraycopy(options, 0, parameters, 4, options.length);
        OutputStream out = socket.getOutputStream();
        out.write(FrontendMessages.startup(parameters));
        out.flush();
        DataInputStream in = new DataInputStream(socket.getInputStream());
        while (true) {
            char type = (char) in.readUnsignedByte();
            byte[] body = new byte[in.readInt() - 4];
            in.readFully(body);
            if (type == 'E') {
                throw new IOException("login of " + user + " failed: " + new String(body, StandardCharsets.UTF_8));
            }
            if (type == 'R' && body[3] == 3) { // AuthenticationCleartextPassword
                out.write(FrontendMessages.password(password));
                out.flush();
            } else if (type == 'R' && body[3] != 0) {
                throw new IOException("login of " + user + " asked for authentication " + body[3]);
            } else if (type == 'Z') {
                return;
            }
        }
    }

    /** Reads until end of stream or a reset, counting whole messages as they come. */
    private static final class Reader implements Runnable {
        private final InputStream in;
        private final ByteArrayOutputStream received = new ByteArrayOutputStream();
        private volatile int messages;
        private volatile boolean reset;

        Reader(InputStream in) {
            this.in = in;
        }

        @Override
        public void run() {
            byte[] buffer = new byte[8192];
            try {
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    synchronized (received) {
                        received.write(buffer, 0, read);
                        messages = countMessages(received.toByteArray());
                    }
                }
            } catch (SocketException e) {
                // closed by us at the deadline: not a reset
                reset = e.getMessage() == null || !e.getMessage().contains("Socket closed");
            } catch (IOException e) {
                reset = true;
            }
        }

        int messages() {
            return messages;
        }

        byte[] bytes() {
            synchronized (received) {
                return received.toByteArray();
            }
        }

        private static int countMessages(byte[] bytes) {
            int count = 0;
            int at = 0;
            while (bytes.length - at >= 5) {
                int length = (bytes[at + 1] & 0xff) << 24 | (bytes[at + 2] & 0xff) << 16 | (bytes[at + 3] & 0xff) << 8
                        | bytes[at + 4] & 0xff;
                if (length < 4 || bytes.length - at - 1 < length) {
                    break;
                }
                at += 1 + length;
                count++;
            }
            return count;
        }
    }
}
