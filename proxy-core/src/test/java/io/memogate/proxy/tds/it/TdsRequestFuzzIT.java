package io.memogate.proxy.tds.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.proxy.tds.it.FuzzMutations.Case;
import io.memogate.proxy.tds.it.FuzzMutations.Framing;
import io.memogate.proxy.tds.it.TdsWire.Message;
import io.memogate.proxy.tds.it.TdsWire.Tokens;
import io.memogate.proxy.cli.RunningProxy;
import io.memogate.proxy.config.BackendConfig;
import io.memogate.proxy.config.BackendTlsConfig;
import io.memogate.proxy.config.ListenerConfig;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.config.Protocol;
import io.memogate.proxy.config.TlsMode;
import io.memogate.proxy.testing.ProxySessions;
import io.memogate.proxy.testing.ScriptedHook;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Broken requests after a proper login, from a raw client through the proxy to the test TDS server, with a seed
 * ({@code -Dmemogate.fuzz.seed=N} tries another, {@code -Dmemogate.fuzz.cases=N} more cases; a failure names its
 * seed and case): RPCs (sp_executesql, sp_prepare, sp_execute, sp_prepexec, sp_unprepare, the cursor procedures;
 * by name and by ProcID) and SQL batches, broken as {@link FuzzMutations} says, with the scripted admission hook
 * reading every statement (one in four refused). After each broken request the client sends a well-formed batch,
 * unless the bytes it sent leave a packet or message unfinished (then it closes its side). What a user would notice:
 * <ul>
 *   <li>an answer within the socket's timeout, or the connection closed: never a hang;</li>
 *   <li>a refused statement (error 8628) never reached the server, and its connection goes on: the batch after it
 *       runs, once;</li>
 *   <li>a request the proxy calls malformed (error 4002), when it was the only message sent, never reached the
 *       server; bytes no packet reader can frame end the connection;</li>
 *   <li>no request reached the server twice; the batch sent after is answered and ran once, or the connection
 *       ended and it did not run;</li>
 *   <li>a request left well-formed runs once (or is refused); one whose parameters are too few or too many for
 *       its procedure, but well-formed TDS, is answered and its connection goes on;</li>
 *   <li>mssql-jdbc logs in and runs a query between cases and after them.</li>
 * </ul>
 */
class TdsRequestFuzzIT {

    private static final int CASES = Integer.getInteger("memogate.fuzz.cases", 400);
    private static final int LIMIT = 32 * 1024;
    private static final long SEED = Long.getLong("memogate.fuzz.seed", 1434L);
    private static final Pattern MARK = Pattern.compile("/\\*fz-(\\d+)\\*/");

    private final ScriptedHook hook = new ScriptedHook();
    private TdsTarget target;
    private TdsTestServer server;
    private TdsProxy proxy;

    /** What the raw client saw of one case. */
    private record Seen(List<Integer> proxyErrors, boolean followUpAnswered, boolean closed) {
    }

    @BeforeEach
    void start() throws Exception {
        target = TdsTarget.open();
        server = target.recording();
        proxy = TdsProxy.to(target.port, target, hook, LIMIT);
    }

    @AfterEach
    void stop() throws Exception {
        proxy.close();
        target.close();
    }

    @Test
    void brokenRequestsAreAnsweredOrEndTheirConnectionAndNothingRunsTwice() throws Exception {
        Tally tally = fuzz(CASES, proxy.port(), proxy::select, true);
        proxy.awaitSessionCount(0);
        assertThat(proxy.select(7)).isEqualTo(7);
        // Whatever reached the server late: still nothing twice, nothing refused, nothing after a closed end.
        for (var request : hook.requests) {
            Matcher mark = MARK.matcher(request.sql());
            if (request.sql().contains(ScriptedHook.REFUSE) && mark.find()) {
                assertThat(receivedWith(mark.group())).as("seed %d: refused %s", SEED, mark.group()).isZero();
            }
        }
        tally.check();
        assertThat(tally.refused).as("seed %d: refusals seen", SEED).isPositive();
    }

    /**
     * The first half of the same cases where the proxy's admission is the one {@code memogate run} sets up
     * (gateways on, the estimator's T-SQL dialect): every text it reads handed to it, broken or not. None is
     * refused (the texts are small), so the checks of refusals do not apply.
     */
    @Test
    void brokenRequestsThroughTheAdmissionOfMemogateRunAreAnsweredOrEndTheirConnection() throws Exception {
        BackendConfig backend = new BackendConfig("sqlserver", target.host, target.port, List.of(), true,
                BackendTlsConfig.of(TlsMode.DISABLE));
        MemogateConfig config = MemogateConfig.of(backend)
                .withListeners(ListenerConfig.of("127.0.0.1", 0).withProtocol(Protocol.TDS));
        config = config.withLimits(config.limits().withMaxMessageBytes(LIMIT))
                .withAdmission(config.admission().withStatementRecords(1000));
        try (RunningProxy estimating = RunningProxy.start(config)) {
            assertThat(estimating.admission()).as("admission with the estimator").isPresent();
            Select select = n -> TdsProxy.select(estimating.server().port(), target, n);
            Tally tally = fuzz(CASES / 2, estimating.server().port(), select, false);
            ProxySessions.awaitSessionCount(estimating.server(), 0);
            assertThat(select.apply(7)).isEqualTo(7);
            tally.check();
            assertThat(estimating.admission().orElseThrow().control("sqlserver").statements().snapshot())
                    .as("statements the admission decided about").isNotEmpty();
        }
    }

    /** {@code SELECT n} through a proxy: what it answers. */
    private interface Select {
        int apply(int n) throws SQLException;
    }

    /** Connections that went on after their case, and the batches after a case whose connection ended. */
    private final class Tally {
        int kept;
        int refused;
        final List<String> closedFollowUps = new ArrayList<>();

        void check() {
            for (String followUp : closedFollowUps) {
                assertThat(receivedWith(followUp)).as("seed %d: %s after its connection ended", SEED, followUp)
                        .isZero();
            }
            assertThat(kept).as("seed %d: connections that went on after a broken request", SEED).isPositive();
        }
    }

    /** {@code cases} cases through the proxy at {@code port}; {@code refusing}: its hook refuses what says so. */
    private Tally fuzz(int cases, int port, Select select, boolean refusing) throws Exception {
        Random random = new Random(SEED);
        Tally tally = new Tally();
        for (int number = 0; number < cases; number++) {
            Case fuzz = FuzzMutations.next(random, number, LIMIT);
            String as = "seed " + SEED + ", case " + number + " (" + fuzz.what() + ", " + fuzz.framing() + "): ";
            String followUp = "SELECT " + (100_000 + number) + " AS n /*after-" + number + "*/";
            Seen seen = send(port, fuzz, followUp, as);
            String mark = fuzz.request().mark();
            assertThat(receivedWith(mark)).as(as + "requests that reached the server with its mark")
                    .isLessThanOrEqualTo(1);
            if (seen.proxyErrors().contains(8628)) {
                tally.refused++;
                assertThat(receivedWith(mark)).as(as + "refused, yet the server received it").isZero();
                if (fuzz.framing() == Framing.COMPLETE) {
                    assertThat(seen.followUpAnswered()).as(as + "the batch after a refusal runs").isTrue();
                }
            }
            if (seen.proxyErrors().contains(4002) && fuzz.messages() <= 1) {
                assertThat(receivedWith(mark)).as(as + "called malformed, yet the server received it").isZero();
            }
            if (fuzz.framing() != Framing.COMPLETE) {
                assertThat(seen.closed()).as(as + "bytes that frame no message end the connection").isTrue();
            }
            if (seen.followUpAnswered()) {
                tally.kept++;
                assertThat(receivedWith("/*after-" + number + "*/")).as(as + "the batch after it ran").isEqualTo(1);
            } else {
                tally.closedFollowUps.add("/*after-" + number + "*/");
                assertThat(receivedWith("/*after-" + number + "*/")).as(as + "the connection ended, yet the batch "
                        + "after it ran").isZero();
            }
            if (fuzz.sound()) {
                assertThat(seen.followUpAnswered()).as(as + "well-formed TDS: the connection goes on").isTrue();
            }
            if (fuzz.wellFormed()) {
                assertThat(seen.followUpAnswered()).as(as + "well-formed: the connection goes on").isTrue();
                assertThat(receivedWith(mark)).as(as + "well-formed: it reached the server")
                        .isEqualTo(fuzz.request().marked() && !(refusing && fuzz.request().refused()) ? 1 : 0);
            }
            if (number % 50 == 49) {
                assertThat(select.apply(number)).as(as + "mssql-jdbc after it").isEqualTo(number);
            }
        }
        return tally;
    }

    /** Logs in, sends the case, then the batch after it (or closes its side); reads to its answer or the end. */
    private Seen send(int port, Case fuzz, String followUp, String as) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000); // a hang fails the case instead of stalling the test
            socket.setTcpNoDelay(true);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            login(out, in, as);
            try {
                out.write(fuzz.bytes());
                if (fuzz.framing() == Framing.INCOMPLETE) {
                    socket.shutdownOutput();
                } else {
                    TdsWire.write(out, TdsWire.SQL_BATCH, FuzzRequests.batch(followUp), 4096, 0);
                }
                out.flush();
            } catch (SocketException closedAlready) {
                // the proxy answered and closed before all was sent
            }
            List<Integer> errors = new ArrayList<>();
            byte[] echo = TdsWire.utf16(followUp);
            while (true) {
                Message answer;
                try {
                    answer = TdsWire.read(in);
                } catch (SocketTimeoutException hang) {
                    throw new AssertionError(as + "no answer and no end within 30 s", hang);
                } catch (IOException ended) { // a reset, or the end inside a message
                    return new Seen(errors, false, true);
                }
                if (answer == null) {
                    return new Seen(errors, false, true);
                }
                assertThat(answer.type()).as(as + "a TDS reply").isEqualTo(TdsWire.REPLY);
                proxyError(answer).ifPresent(errors::add);
                if (WireTap.contains(answer.data(), echo)) {
                    return new Seen(errors, true, false);
                }
            }
        }
    }

    /** The proxy's own ERROR token that begins {@code answer}: its number. */
    private static Optional<Integer> proxyError(Message answer) {
        byte[] data = answer.data();
        if (data.length < 11 || (data[0] & 0xFF) != 0xAA) {
            return Optional.empty();
        }
        ByteBuffer tokens = answer.littleEndian();
        int chars = tokens.getShort(9) & 0xFFFF;
        int server = 11 + 2 * chars;
        String name = new String(data, server + 1, 2 * (data[server] & 0xFF), StandardCharsets.UTF_16LE);
        return name.equals("memogate") ? Optional.of(tokens.getInt(3)) : Optional.empty();
    }

    /** How many messages the test TDS server received carrying {@code mark}. */
    private long receivedWith(String mark) {
        byte[] bytes = TdsWire.utf16(mark);
        return server.received.stream().filter(message -> WireTap.contains(message.data(), bytes)).count();
    }

    /** PRELOGIN, then a LOGIN7 of the target's user, each answered. */
    private void login(OutputStream out, InputStream in, String as) throws IOException {
        int data = 2 * 5 + 1;
        TdsWire.write(out, TdsWire.PRELOGIN, new Tokens().u8(0).raw(new byte[] {0, (byte) data, 0, 6}).u8(1)
                .raw(new byte[] {0, (byte) (data + 6), 0, 1}).u8(0xFF).raw(new byte[] {13, 0, 0, 0, 0, 0}).u8(2)
                .bytes(), 4096, 0);
        assertThat(TdsWire.read(in).type()).as(as + "PRELOGIN answered").isEqualTo(TdsWire.REPLY);
        TdsWire.write(out, TdsWire.LOGIN7, login7(target.user, target.password, target.database), 4096, 0);
        Message answer = TdsWire.read(in);
        assertThat(WireTap.contains(answer.data(), new byte[] {(byte) 0xAD})).as(as + "LOGINACK").isTrue();
    }

    /**
     * A LOGIN7 ([MS-TDS] 2.2.6.4): its length, TDS 7.4, packet size 4096, client version, pid, connection id,
     * option flags, time zone, LCID, then (offset, length) pairs of which only UserName, Password (obfuscated as
     * 2.2.6.4 says: each byte's nibbles swapped, then XOR 0xA5) and Database are set.
     */
    private static byte[] login7(String user, String password, String database) {
        int fixed = 94;
        byte[] hidden = TdsWire.utf16(password);
        for (int i = 0; i < hidden.length; i++) {
            int b = hidden[i] & 0xFF;
            hidden[i] = (byte) (((b << 4 | b >> 4) & 0xFF) ^ 0xA5);
        }
        ByteBuffer login = ByteBuffer.allocate(fixed + 2 * (user.length() + password.length() + database.length()))
                .order(ByteOrder.LITTLE_ENDIAN);
        int at = fixed;
        login.putInt(0, login.capacity()).putInt(4, 0x74000004).putInt(8, 4096);
        login.putShort(40, (short) at).putShort(42, (short) user.length()).put(at, TdsWire.utf16(user));
        at += 2 * user.length();
        login.putShort(44, (short) at).putShort(46, (short) password.length()).put(at, hidden);
        at += hidden.length;
        login.putShort(68, (short) at).putShort(70, (short) database.length()).put(at, TdsWire.utf16(database));
        return login.array();
    }
}
