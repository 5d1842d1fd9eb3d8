package io.memogate.proxy.tds.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.proxy.admission.ImmediateAdmission;
import io.memogate.proxy.tds.it.TdsWire.Message;
import io.memogate.proxy.tds.it.TdsWire.Tokens;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Broken and odd packets through the TDS wing, from a raw client: each gets the proxy's ERROR 4002 and the end of
 * the connection, or the end alone, never a hang; a PRELOGIN asking for MARS reaches the server with MARS off.
 */
class TdsBrokenPacketsIT {

    private TdsTarget target;
    private TdsProxy proxy;

    @BeforeEach
    void start() throws Exception {
        target = TdsTarget.open();
        target.recording();
        proxy = TdsProxy.to(target.port, target, new ImmediateAdmission(), 1 << 20);
    }

    @AfterEach
    void stop() throws Exception {
        proxy.close();
        target.close();
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket("127.0.0.1", proxy.port());
        socket.setSoTimeout(20_000); // a hang fails the test instead of stalling it
        return socket;
    }

    /** A PRELOGIN with VERSION, ENCRYPTION (ENCRYPT_NOT_SUP) and MARS (on). */
    private static byte[] prelogin() {
        int data = 3 * 5 + 1;
        return new Tokens().u8(0).raw(new byte[] {0, (byte) data, 0, 6}).u8(1).raw(new byte[] {0, (byte) (data + 6), 0, 1})
                .u8(4).raw(new byte[] {0, (byte) (data + 7), 0, 1}).u8(0xFF)
                .raw(new byte[] {13, 0, 0, 0, 0, 0}).u8(2).u8(1).bytes();
    }

    /** The ERROR token of a message the proxy answered with: its number; fails on anything else. */
    private static int errorNumber(Message answer) {
        ByteBuffer tokens = answer.littleEndian();
        assertThat(tokens.get(0) & 0xFF).as("an ERROR token").isEqualTo(0xAA);
        return tokens.getInt(3);
    }

    private static String errorText(Message answer) {
        ByteBuffer tokens = answer.littleEndian();
        int chars = tokens.getShort(9) & 0xFFFF;
        return new String(answer.data(), 11, chars * 2, StandardCharsets.UTF_16LE);
    }

    private static boolean closedByPeer(InputStream in) throws IOException {
        return in.read() < 0;
    }

    @Test
    void aPreloginAskingForMarsReachesTheServerWithMarsOff() throws Exception {
        try (Socket socket = connect(); OutputStream out = socket.getOutputStream(); InputStream in = socket.getInputStream()) {
            TdsWire.write(out, TdsWire.PRELOGIN, prelogin(), 4096, 0);
            Message answer = TdsWire.read(in);
            assertThat(answer.type()).isEqualTo(TdsWire.REPLY);
        }
        assertThat(target.recording().preloginMars).containsExactly(0);
        assertThat(target.recording().preloginEncryption).containsExactly(2);
    }

    @Test
    void aHeaderShorterThanItselfGetsAnErrorAndTheEnd() throws Exception {
        try (Socket socket = connect(); OutputStream out = socket.getOutputStream(); InputStream in = socket.getInputStream()) {
            out.write(new byte[] {18, 1, 0, 3, 0, 0, 0, 0});
            Message answer = TdsWire.read(in);
            assertThat(errorNumber(answer)).isEqualTo(4002);
            assertThat(errorText(answer)).contains("less than the header's own 8");
            assertThat(closedByPeer(in)).isTrue();
        }
        proxy.awaitSessionCount(0);
    }

    @Test
    void aPreloginWithoutItsTerminatorGetsAnErrorAndTheEnd() throws Exception {
        try (Socket socket = connect(); OutputStream out = socket.getOutputStream(); InputStream in = socket.getInputStream()) {
            TdsWire.write(out, TdsWire.PRELOGIN, new byte[] {0, 0, 5, 0, 6}, 4096, 0);
            Message answer = TdsWire.read(in);
            assertThat(errorNumber(answer)).isEqualTo(4002);
            assertThat(errorText(answer)).contains("PRELOGIN");
            assertThat(closedByPeer(in)).isTrue();
        }
        assertThat(target.recording().preloginEncryption).isEmpty();
    }

    @Test
    void aLoginOfRandomBytesGetsAnErrorOrTheEnd() throws Exception {
        Random random = new Random(1433);
        for (int round = 0; round < 10; round++) {
            try (Socket socket = connect(); OutputStream out = socket.getOutputStream();
                 InputStream in = socket.getInputStream()) {
                TdsWire.write(out, TdsWire.PRELOGIN, prelogin(), 4096, 0);
                TdsWire.read(in);
                byte[] junk = new byte[1 + random.nextInt(200)];
                random.nextBytes(junk);
                TdsWire.write(out, TdsWire.LOGIN7, junk, 4096, 0);
                Message answer = TdsWire.read(in);
                if (answer != null) {
                    assertThat(errorNumber(answer)).as("round %d", round).isEqualTo(4002);
                }
                assertThat(closedByPeer(in)).as("round %d: the connection ends", round).isTrue();
            }
        }
        proxy.awaitSessionCount(0);
    }

    @Test
    void aPacketCutShortEndsWhenTheClientDoes() throws Exception {
        try (Socket socket = connect(); OutputStream out = socket.getOutputStream(); InputStream in = socket.getInputStream()) {
            out.write(new byte[] {18, 1, 0, 100, 0, 0, 0, 0, 1, 2});
            socket.shutdownOutput();
            assertThat(closedByPeer(in)).isTrue();
        }
        proxy.awaitSessionCount(0);
    }

    @Test
    void aMessageOverTheLimitGetsAnErrorAndTheEnd() throws Exception {
        try (Socket socket = connect(); OutputStream out = socket.getOutputStream(); InputStream in = socket.getInputStream()) {
            byte[] packet = new byte[4096 - 8];
            for (int sent = 0; sent <= (1 << 20) + 4096; sent += packet.length) {
                out.write(new byte[] {TdsWire.PRELOGIN, 0, 0x10, 0, 0, 0, 0, 0});
                out.write(packet);
            }
            Message answer = TdsWire.read(in);
            assertThat(errorNumber(answer)).isEqualTo(4002);
            assertThat(errorText(answer)).contains("limits.maxMessageBytes");
        }
    }
}
