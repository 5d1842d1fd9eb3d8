package io.memogate.proxy.it;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * A deliberately primitive protocol-3 client over a plain socket (or a TLS one started directly), for
 * what drivers will not do: send malformed bytes, pipeline raw messages, read slowly, vanish mid-query.
 * Authenticates only by trust (the embedded test server trusts user memogate_trust).
 */
final class RawPgClient implements AutoCloseable {

    /** One backend message: its type byte and body. */
    record Message(char type, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        /** The fields of an ErrorResponse or NoticeResponse, by field code. */
        Map<Character, String> fields() {
            Map<Character, String> fields = new HashMap<>();
            int i = 0;
            while (i < body.length && body[i] != 0) {
                char code = (char) body[i++];
                int end = i;
                while (body[end] != 0) {
                    end++;
                }
                fields.put(code, new String(body, i, end - i, StandardCharsets.UTF_8));
                i = end + 1;
            }
            return fields;
        }

        String sqlState() {
            return fields().get('C');
        }
    }

    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;

    RawPgClient(int port) throws IOException {
        this(new Socket("127.0.0.1", port));
    }

    private RawPgClient(Socket socket) throws IOException {
        this.socket = socket;
        socket.setSoTimeout(20_000);
        socket.setTcpNoDelay(true); // as libpq and pgjdbc set it: each message leaves at once, not after an ACK
        in = new DataInputStream(socket.getInputStream());
        out = new DataOutputStream(socket.getOutputStream());
    }

    /**
     * A client that starts TLS at once, with no SSLRequest (PostgreSQL 17's direct TLS), offering
     * {@code alpn} (none when empty). The handshake happens at the first write.
     */
    static RawPgClient directTls(int port, SSLContext tls, String... alpn) throws IOException {
        SSLSocket socket = (SSLSocket) tls.getSocketFactory().createSocket("127.0.0.1", port);
        SSLParameters parameters = socket.getSSLParameters();
        parameters.setApplicationProtocols(alpn);
        socket.setSSLParameters(parameters);
        return new RawPgClient(socket);
    }

    /** Sends a StartupMessage and reads to the first ReadyForQuery (or the error that ends it). */
    List<Message> startup(String user, String database) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        cstring(body, "user");
        cstring(body, user);
        cstring(body, "database");
        cstring(body, database);
        body.write(0);
        out.writeInt(8 + body.size());
        out.writeInt(3 << 16);
        out.write(body.toByteArray());
        out.flush();
        return readUntilReadyOrError();
    }

    void query(String sql) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        cstring(body, sql);
        send('Q', body.toByteArray());
    }

    /** A message body: its fields, each already encoded ({@link #cstring}, {@link #int16}, {@link #int32}). */
    static byte[] body(byte[]... fields) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] field : fields) {
            out.writeBytes(field);
        }
        return out.toByteArray();
    }

    static byte[] cstring(String value) {
        return (value + "\0").getBytes(StandardCharsets.UTF_8);
    }

    static byte[] int16(int value) {
        return new byte[] {(byte) (value >> 8), (byte) value};
    }

    static byte[] int32(int value) {
        return new byte[] {(byte) (value >> 24), (byte) (value >> 16), (byte) (value >> 8), (byte) value};
    }

    void send(char type, byte[] body) throws IOException {
        out.writeByte(type);
        out.writeInt(4 + body.length);
        out.write(body);
        out.flush();
    }

    void sendRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    Message read() throws IOException {
        return readAfter((char) in.readUnsignedByte());
    }

    /**
     * The peer's next message if it begins to arrive within {@code wait}, else empty: for a message that must not
     * come until something else happens.
     */
    Optional<Message> readWithin(Duration wait) throws IOException {
        int timeout = socket.getSoTimeout();
        socket.setSoTimeout(Math.toIntExact(wait.toMillis()));
        int type;
        try {
            type = in.readUnsignedByte();
        } catch (SocketTimeoutException nothing) {
            return Optional.empty();
        } finally {
            socket.setSoTimeout(timeout);
        }
        return Optional.of(readAfter((char) type));
    }

    /**
     * The peer's next message, or empty when it closed the connection without sending a byte of one (a reset
     * then counts as a close: a server that closed with bytes of the client's unread gets the client a reset).
     */
    Optional<Message> readOrClosed() throws IOException {
        int type;
        try {
            type = in.read();
        } catch (SocketException e) {
            if (e.getMessage() != null && e.getMessage().contains("reset")) {
                return Optional.empty();
            }
            throw e;
        }
        return type < 0 ? Optional.empty() : Optional.of(readAfter((char) type));
    }

    /** Ends the client's side of the connection, as a client that has nothing more to send. */
    void endOutput() throws IOException {
        socket.shutdownOutput();
    }

    private Message readAfter(char type) throws IOException {
        int length = in.readInt();
        byte[] body = new byte[length - 4];
        in.readFully(body);
        return new Message(type, body);
    }

    List<Message> readUntilReady() throws IOException {
        List<Message> messages = new ArrayList<>();
        Message message;
        do {
            message = read();
            messages.add(message);
        } while (message.type() != 'Z');
        return messages;
    }

    /** Every message until the peer closes the connection. */
    List<Message> readUntilClosed() throws IOException {
        List<Message> messages = new ArrayList<>();
        try {
            while (true) {
                messages.add(read());
            }
        } catch (EOFException closed) {
            return messages;
        }
    }

    private List<Message> readUntilReadyOrError() throws IOException {
        List<Message> messages = new ArrayList<>();
        while (true) {
            Message message = read();
            messages.add(message);
            if (message.type() == 'Z' || message.type() == 'E') {
                return messages;
            }
        }
    }

    /** True when the proxy closed the connection (end of stream) within the socket timeout. */
    boolean closedByPeer() throws IOException {
        try {
            while (in.read() >= 0) {
                // drain whatever is still in flight
            }
            return true;
        } catch (EOFException e) {
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return e.getMessage() != null && e.getMessage().contains("reset");
        }
    }

    void setReadTimeout(int millis) throws IOException {
        socket.setSoTimeout(millis);
    }

    /** Shrinks the receive buffer so that a slow reader pushes back early (set before reading). */
    void setReceiveBuffer(int bytes) throws IOException {
        socket.setReceiveBufferSize(bytes);
    }

    DataInputStream input() {
        return in;
    }

    /** This client's port, to find its connection in {@link TcpTable}. */
    int localPort() {
        return socket.getLocalPort();
    }

    /** The server process behind this session, asked through it (select pg_backend_pid()). */
    int serverPid() throws IOException {
        query("select pg_backend_pid()");
        byte[] pidRow = readUntilReady().get(1).body();
        return Integer.parseInt(new String(pidRow, 6, ByteBuffer.wrap(pidRow, 2, 4).getInt(), StandardCharsets.UTF_8));
    }

    private static void cstring(ByteArrayOutputStream out, String value) {
        out.writeBytes(value.getBytes(StandardCharsets.UTF_8));
        out.write(0);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
