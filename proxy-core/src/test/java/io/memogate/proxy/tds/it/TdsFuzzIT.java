package io.memogate.proxy.tds.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.proxy.admission.ImmediateAdmission;
import io.memogate.proxy.tds.it.TdsWire.Tokens;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Random and broken TDS through the proxy, from a raw client, with a fixed seed so that a failure replays: bytes at
 * random, PRELOGIN packets with a header field or a byte changed, PRELOGIN then a LOGIN7 of random bytes, packets cut
 * short. The client sends, then closes its side; every case must end with the proxy closing the connection (after
 * its answer or ERROR token, if any) within the socket's timeout, never a hang, and afterwards mssql-jdbc still runs
 * a query through the proxy.
 */
class TdsFuzzIT {

    private static final int CASES = 300;

    private TdsTarget target;
    private TdsProxy proxy;

    @BeforeEach
    void start() throws Exception {
        target = TdsTarget.open();
        proxy = TdsProxy.to(target.port, target, new ImmediateAdmission(), 1 << 20);
    }

    @AfterEach
    void stop() throws Exception {
        proxy.close();
        target.close();
    }

    @Test
    void everyBrokenInputEndsItsConnectionAndTheProxyGoesOnServing() throws Exception {
        Random random = new Random(1433);
        for (int round = 0; round < CASES; round++) {
            byte[] sent = switch (round % 4) {
                case 0 -> randomBytes(random, 1 + random.nextInt(600));
                case 1 -> mutated(random, framed(TdsWire.PRELOGIN, prelogin()));
                case 2 -> concat(framed(TdsWire.PRELOGIN, prelogin()),
                        framed(TdsWire.LOGIN7, randomBytes(random, random.nextInt(300))));
                default -> cut(random, framed(TdsWire.PRELOGIN, prelogin()));
            };
            byte[] answer = answerUntilClosed(sent);
            if (answer.length > 0) {
                assertThat(answer[0]).as("case %d: a TDS reply (an answer or an ERROR token), %s", round, hex(sent))
                        .isEqualTo((byte) TdsWire.REPLY);
            }
            if (round % 50 == 49) {
                assertThat(proxy.select(round)).as("after case %d", round).isEqualTo(round);
            }
        }
        proxy.awaitSessionCount(0);
        assertThat(proxy.select(7)).isEqualTo(7);
    }

    /** Sends {@code bytes}, closes the sending side, then reads all the proxy answers until it closes. */
    private byte[] answerUntilClosed(byte[] bytes) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", proxy.port())) {
            socket.setSoTimeout(20_000); // a hang fails the test (SocketTimeoutException) instead of stalling it
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            try {
                out.write(bytes);
                out.flush();
                socket.shutdownOutput();
            } catch (SocketException closedAlready) {
                // the proxy answered and closed before all was sent
            }
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            byte[] chunk = new byte[4096];
            try {
                for (int n; (n = in.read(chunk)) >= 0; ) {
                    answer.write(chunk, 0, n);
                }
            } catch (SocketException reset) {
                // closed with unread input on the proxy's side: a reset is an end too
            }
            return answer.toByteArray();
        }
    }

    /** A PRELOGIN with VERSION, ENCRYPTION (ENCRYPT_NOT_SUP) and the terminator. */
    private static byte[] prelogin() {
        int data = 2 * 5 + 1;
        return new Tokens().u8(0).raw(new byte[] {0, (byte) data, 0, 6}).u8(1).raw(new byte[] {0, (byte) (data + 6), 0, 1})
                .u8(0xFF).raw(new byte[] {13, 0, 0, 0, 0, 0}).u8(2).bytes();
    }

    private static byte[] framed(int type, byte[] data) throws IOException {
        ByteArrayOutputStream packets = new ByteArrayOutputStream();
        TdsWire.write(packets, type, data, 4096, 0);
        return packets.toByteArray();
    }

    /** A header field (type, status, length, SPID, packet number) or a byte of the data set at random. */
    private static byte[] mutated(Random random, byte[] message) {
        byte[] changed = message.clone();
        int changes = 1 + random.nextInt(3);
        for (int i = 0; i < changes; i++) {
            int at = random.nextBoolean() ? random.nextInt(8) : random.nextInt(changed.length);
            changed[at] = (byte) random.nextInt(256);
        }
        return changed;
    }

    private static byte[] cut(Random random, byte[] message) {
        return Arrays.copyOf(message, random.nextInt(message.length));
    }

    private static byte[] randomBytes(Random random, int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }

    private static String hex(byte[] bytes) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < Math.min(bytes.length, 64); i++) {
            text.append(String.format("%02x", bytes[i]));
        }
        return text.toString();
    }
}
