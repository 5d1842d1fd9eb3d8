package io.memogate.proxy.mysql.it;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * A MySQL client that writes packets as a test wants them, broken ones too, and reads what comes back: for
 * the fuzz test. Logs in with mysql_native_password, which it computes itself.
 */
final class RawMySqlClient implements AutoCloseable {

    /** A packet read: its sequence id and payload; null payload at the end of the stream. */
    record Packet(int sequenceId, byte[] payload) {
        int first() {
            return payload.length == 0 ? -1 : payload[0] & 0xFF;
        }

        boolean isErr() {
            return first() == 0xFF;
        }

        int errorCode() {
            return (payload[1] & 0xFF) | (payload[2] & 0xFF) << 8;
        }

        String sqlState() {
            return new String(payload, 4, 5, StandardCharsets.US_ASCII);
        }

        String message() {
            return new String(payload, 9, payload.length - 9, StandardCharsets.UTF_8);
        }
    }

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;

    RawMySqlClient(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(20_000); // a hang fails the test instead of stalling the build
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    /** Reads the greeting and logs in as {@code user}: the server's answer (OK or ERR). */
    Packet login(String user, String password) throws IOException {
        return login(user, password, "");
    }

    /** The same, naming {@code database} (CLIENT_CONNECT_WITH_DB) unless it is empty. */
    Packet login(String user, String password, String database) throws IOException {
        byte[] greeting = read().payload();
        int at = 1;
        while (greeting[at] != 0) {
            at++;
        }
        at += 1 + 4;
        byte[] scramble = new byte[20];
        System.arraycopy(greeting, at, scramble, 0, 8);
        at += 8 + 1 + 2 + 1 + 2 + 2 + 1 + 10;
        System.arraycopy(greeting, at, scramble, 8, 12);
        ByteArrayOutputStream response = new ByteArrayOutputStream();
        int capabilities = 1 | 1 << 9 | 1 << 15 | 1 << 19 // LONG_PASSWORD, PROTOCOL_41, SECURE_CONNECTION, PLUGIN_AUTH
                | (database.isEmpty() ? 0 : 1 << 3); // CONNECT_WITH_DB
        writeIntLe(response, capabilities);
        writeIntLe(response, 1 << 24);
        response.write(45);
        response.write(new byte[23], 0, 23);
        response.writeBytes(user.getBytes(StandardCharsets.UTF_8));
        response.write(0);
        byte[] token = nativePassword(password, scramble);
        response.write(token.length);
        response.writeBytes(token);
        if (!database.isEmpty()) {
            response.writeBytes(database.getBytes(StandardCharsets.UTF_8));
            response.write(0);
        }
        response.writeBytes("mysql_native_password".getBytes(StandardCharsets.US_ASCII));
        response.write(0);
        write(1, response.toByteArray());
        return read();
    }

    /** Writes one packet: header, then {@code payload}. */
    void write(int sequenceId, byte[] payload) throws IOException {
        byte[] header = {(byte) payload.length, (byte) (payload.length >> 8), (byte) (payload.length >> 16),
                (byte) sequenceId};
        out.write(header);
        out.write(payload);
        out.flush();
    }

    void writeRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    void command(int command, byte[] body) throws IOException {
        byte[] payload = new byte[body.length + 1];
        payload[0] = (byte) command;
        System.arraycopy(body, 0, payload, 1, body.length);
        write(0, payload);
    }

    void query(String sql) throws IOException {
        command(0x03, sql.getBytes(StandardCharsets.UTF_8));
    }

    /** The next packet, or a packet with a null payload when the proxy closed the connection. */
    Packet read() throws IOException {
        try {
            int length = in.readUnsignedByte() | in.readUnsignedByte() << 8 | in.readUnsignedByte() << 16;
            int sequenceId = in.readUnsignedByte();
            byte[] payload = new byte[length];
            in.readFully(payload);
            return new Packet(sequenceId, payload);
        } catch (EOFException closed) {
            return new Packet(-1, null);
        }
    }

    /** Whether the proxy ended the connection: reads until the end of the stream, dropping what comes. */
    boolean closedByPeer() throws IOException {
        while (in.read() >= 0) {
            // the rest of what was sent before the close
        }
        return true;
    }

    void shutdownOutput() throws IOException {
        socket.shutdownOutput();
    }

    private static byte[] nativePassword(String password, byte[] scramble) {
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            byte[] stage1 = sha1.digest(password.getBytes(StandardCharsets.UTF_8));
            byte[] stage2 = sha1.digest(stage1);
            sha1.update(scramble);
            byte[] mix = sha1.digest(stage2);
            byte[] token = Arrays.copyOf(stage1, stage1.length);
            for (int i = 0; i < token.length; i++) {
                token[i] ^= mix[i];
            }
            return token;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void writeIntLe(ByteArrayOutputStream out, int value) {
        out.write(value);
        out.write(value >> 8);
        out.write(value >> 16);
        out.write(value >> 24);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
