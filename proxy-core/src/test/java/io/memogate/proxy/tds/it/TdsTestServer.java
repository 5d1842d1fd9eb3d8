package io.memogate.proxy.tds.it;

import io.memogate.proxy.tds.it.TdsWire.Message;
import io.memogate.proxy.tds.it.TdsWire.Tokens;
import io.memogate.proxy.postgres.embedded.SelfSignedCertificate;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The test TDS server: a small TDS 7.4 endpoint written from [MS-TDS] for the wing's tests, since no SQL Server
 * runs on the machines these tests run on. To a client whose LOGIN7 asks for TDS 7.1 (jTDS, FreeTDS) it answers in
 * 7.1: LOGINACK version 7.1, 2-byte UserTypes in COLMETADATA and RETURNVALUE, 4-byte DONE row counts; to one asking
 * for 7.2 or 7.3 its LOGINACK agrees to that version, as SQL Server's does (the answers' formats are 7.2's).
 * It answers PRELOGIN (as configured by its {@link Encryption}, with TLS inside PRELOGIN packets, for the login only
 * or for everything, or TDS 8.0's TLS first), LOGIN7 (LOGINACK with ENVCHANGEs for the database, collation and
 * packet size; user {@code refused}, and user {@code memo} with another password than {@code secret}, get error
 * 18456; an integrated login is NTLM with one Windows account, verified, {@link TestServerNtlm}, 18456
 * when it fails; an access token inside LOGIN7, {@link TestServerFedAuth}: LOGINACK then a FEATUREEXTACK, 18456 for
 * another token than the one it accepts), every SQL batch with one row of two columns (an INT: the number after a
 * leading {@code SELECT}, else 1; an NVARCHAR: the batch's text as received) except T-SQL's {@code THROW number, 'message', state}, answered with
 * that error (class 16), a batch of settings (a leading {@code SET}: a DONE, no rows) and a {@code WAITFOR} batch,
 * which "runs" until an ATTENTION cancels it (its answer then ends with a DONE of no rows, and DONE_ATTN follows in
 * a message of its own), sp_executesql, sp_prepare, sp_prepexec, sp_execute and sp_unprepare with handles in
 * RETURNVALUE tokens ({@link TestServerProcedures}), an ATTENTION with DONE_ATTN, and any other RPC with an error.
 * It records what it received, so that tests see what the proxy passed on. A thread per connection; test scope only.
 * Told to {@link #routeTo route}, it answers every login with a LOGINACK, a Routing ENVCHANGE naming another server
 * and a DONE, as an Azure SQL gateway or an availability group listener does. Its PRELOGIN answer says MARS as the
 * client asked it, as SQL Server does.
 */
final class TdsTestServer implements AutoCloseable {

    /** What the server does about encryption, as SQL Server's configuration would have it. */
    enum Encryption {
        /** No certificate: ENCRYPT_NOT_SUP to everyone. */
        NONE,
        /** Answers ENCRYPT_REQ to everyone, and encrypts nothing: for refusals before any TLS. */
        DEMANDED_WITHOUT_TLS,
        /** A certificate, Force Encryption off: the login only for a client that says OFF, all for one that says ON. */
        OFFERED,
        /** Force Encryption on: everything encrypted, ENCRYPT_REQ to a client that does not support it. */
        FORCED,
        /** TDS 8.0 (Force Strict Encryption): TLS first on TCP with ALPN tds/8.0, PRELOGIN inside it. */
        STRICT
    }

    private static final Pattern LEADING_NUMBER = Pattern.compile("^\\s*SELECT\\s+(\\d+)", Pattern.CASE_INSENSITIVE);
    /** T-SQL's {@code THROW number, 'message', state}: the one statement that fails here, as on SQL Server. */
    private static final Pattern THROW = Pattern.compile(
            "^\\s*THROW\\s+(\\d+)\\s*,\\s*N?'((?:[^']|'')*)'\\s*,\\s*(\\d+)", Pattern.CASE_INSENSITIVE);
    /** The user whose password is checked, and that password ({@link TdsTarget}'s login). */
    static final String USER = "memo";
    static final String PASSWORD = "secret";
    /** A batch of session settings (SET ...), as drivers send after their login: answered with a DONE, no rows. */
    private static final Pattern SETTINGS = Pattern.compile("^\\s*SET\\s", Pattern.CASE_INSENSITIVE);
    /** A batch that runs until it is cancelled. */
    private static final Pattern WAITFOR = Pattern.compile("\\bWAITFOR\\b", Pattern.CASE_INSENSITIVE);
    /** Latin1_General_CI_AS: LCID 0x0409 with its flags, sort id 0x34 ([MS-TDS] 2.2.5.1.2). */
    private static final byte[] COLLATION = {0x09, 0x04, (byte) 0xD0, 0x00, 0x34};

    final List<String> batches = new CopyOnWriteArrayList<>();
    /** The texts of the statements RPCs ran or prepared ({@link TestServerProcedures}). */
    final List<String> rpcs = new CopyOnWriteArrayList<>();
    /** The ProcIDs of the RPCs received, in order (a procedure called by name: its ProcID; another: 0). */
    final List<Integer> procedureIds = new CopyOnWriteArrayList<>();
    /** Every message received after a LOGIN7, as it came (type and data), whether it could be read or not. */
    final List<Message> received = new CopyOnWriteArrayList<>();
    final List<Integer> preloginEncryption = new CopyOnWriteArrayList<>();
    final List<Integer> preloginMars = new CopyOnWriteArrayList<>();
    final List<String> logins = new CopyOnWriteArrayList<>();
    /** The ServerName of each LOGIN7 received. */
    final List<String> serverNames = new CopyOnWriteArrayList<>();
    /** The access token of each LOGIN7 with a FEDAUTH feature, as its bytes came ({@link TestServerFedAuth}). */
    final List<byte[]> accessTokens = new CopyOnWriteArrayList<>();
    final AtomicInteger attentions = new AtomicInteger();
    /** TLS handshakes inside PRELOGIN packets that failed (the peer refused the certificate, or sent no TLS). */
    final AtomicInteger tlsFailures = new AtomicInteger();
    /** ATTENTIONs that came while a WAITFOR batch ran, each ending it. */
    final AtomicInteger cancelledWhileRunning = new AtomicInteger();
    final AtomicInteger connections = new AtomicInteger();
    /** Per connection, how its TLS went: "login-only TLSv1.2", "full TLSv1.2", "strict TLSv1.3 tds/8.0". */
    final List<String> tls = new CopyOnWriteArrayList<>();
    /** Every byte it received, as it came off the wire, for checks of what travelled in clear. */
    private final ByteArrayOutputStream wire = new ByteArrayOutputStream();

    private final ServerSocket listening;
    private final Encryption encryption;
    private final TestServerTls serverTls;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private final AtomicInteger spids = new AtomicInteger(51);
    /** The data of the FEATUREEXTACK acknowledging an access token ({@link TestServerFedAuth}): none, as SQL Server. */
    private volatile byte[] fedAuthAckData = new byte[0];
    /** Where every login is routed, or null. */
    private volatile Route routing;

    /** A routing: the server's name and port, and a database for enhanced routing (empty: none). */
    private record Route(String server, int port, String database) {
    }

    private TdsTestServer(Encryption encryption, TestServerTls serverTls) throws IOException {
        this.encryption = encryption;
        this.serverTls = serverTls;
        this.listening = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "tds-test-server-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    static TdsTestServer start() throws IOException {
        return new TdsTestServer(Encryption.NONE, null);
    }

    /** One with {@code certificate}, encrypting as {@code encryption} says. */
    static TdsTestServer encrypting(Encryption encryption, SelfSignedCertificate certificate) throws IOException {
        return new TdsTestServer(encryption, new TestServerTls(certificate));
    }

    /** Whether {@code text} went over the wire to this server in clear, as UTF-16LE (as TDS sends text). */
    boolean receivedInClear(String text) {
        byte[] received;
        synchronized (wire) {
            received = wire.toByteArray();
        }
        return WireTap.contains(received, TdsWire.utf16(text));
    }

    /** One that answers every PRELOGIN with ENCRYPT_REQ, as a server with Force Encryption does. */
    static TdsTestServer demandingEncryption() throws IOException {
        return new TdsTestServer(Encryption.DEMANDED_WITHOUT_TLS, null);
    }

    int port() {
        return listening.getLocalPort();
    }

    /** From now on, every login is answered with a routing to {@code alternateServer} at {@code port}. */
    TdsTestServer routeTo(String alternateServer, int port) {
        return routeTo(alternateServer, port, "");
    }

    /** The same, naming {@code database} there as an enhanced routing does (after the server's name). */
    TdsTestServer routeTo(String alternateServer, int port, String database) {
        routing = new Route(alternateServer, port, database);
        return this;
    }

    /** From now on, an access token's FEATUREEXTACK carries {@code data} (a 32-byte nonce, say). */
    TdsTestServer acknowledgingFedAuthWith(byte[] data) {
        fedAuthAckData = data.clone();
        return this;
    }

    private void accept() {
        while (!listening.isClosed()) {
            try {
                Socket socket = listening.accept();
                open.add(socket);
                connections.incrementAndGet();
                Thread connection = new Thread(() -> serve(socket), "tds-test-server-" + socket.getPort());
                connection.setDaemon(true);
                connection.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        int spid = spids.getAndIncrement();
        int packetSize = 4096;
        try (socket; InputStream rawIn = recorded(socket.getInputStream()); OutputStream rawOut = socket.getOutputStream()) {
            InputStream in = rawIn;
            OutputStream out = rawOut;
            boolean loginOnly = false;
            if (encryption == Encryption.STRICT) {
                TestServerTls.Connection strict = serverTls.accept(rawIn, rawOut, true);
                tls.add("strict " + strict.protocol() + " " + strict.applicationProtocol());
                in = strict.in();
                out = strict.out();
            }
            TestServerProcedures procedures = new TestServerProcedures();
            TestServerNtlm ntlm = null; // an NTLM login under way
            String ntlmDatabase = "";
            boolean tds72 = true; // TDS 7.2 or later: ALL_HEADERS in requests, 7.2's answer formats
            boolean running = false; // a WAITFOR batch "runs" until an ATTENTION cancels it
            boolean loggedIn = false;
            byte[] agreedVersion = null; // the LOGINACK's TDS version, once the LOGIN7 came
            boolean fedAuthRequired = false; // answered FEDAUTHREQUIRED 1 in PRELOGIN
            for (Message message; (message = TdsWire.read(in)) != null; ) {
                if (loggedIn && message.type() != TdsWire.PRELOGIN && message.type() != TdsWire.LOGIN7) {
                    received.add(message);
                }
                switch (message.type()) {
                    case TdsWire.PRELOGIN -> {
                        int asked = clientEncryption(message);
                        int answer = encryptionAnswer(asked);
                        int mars = option(message, 4) == 1 ? 1 : 0;
                        fedAuthRequired = option(message, TestServerFedAuth.PRELOGIN_OPTION) >= 0;
                        TdsWire.write(out, TdsWire.REPLY, prelogin(answer, mars, fedAuthRequired), packetSize, 0);
                        if (encryption != Encryption.STRICT && serverTls != null && answer != 2 && asked != 2) {
                            loginOnly = asked == 0 && answer == 0;
                            TestServerTls.Connection encrypted;
                            try {
                                encrypted = serverTls.accept(rawIn, rawOut, false);
                            } catch (IOException e) {
                                tlsFailures.incrementAndGet();
                                throw e;
                            }
                            tls.add((loginOnly ? "login-only " : "full ") + encrypted.protocol());
                            in = encrypted.in();
                            out = encrypted.out();
                        }
                    }
                    case TdsWire.LOGIN7 -> {
                        if (loginOnly) { // the LOGIN7 came in TLS; everything after it comes, and goes, in clear
                            in = rawIn;
                            out = rawOut;
                        }
                        ByteBuffer login = message.littleEndian();
                        int asked = login.getInt(8);
                        // 7.2's formats from TDS 7.2 on, TDS 8.0 (0x08000000) included
                        int version = login.getInt(4);
                        tds72 = Integer.compareUnsigned(version, 0x70000000) < 0
                                || Integer.compareUnsigned(version, 0x72090002) >= 0;
                        agreedVersion = agreed(version, tds72);
                        packetSize = asked >= 512 && asked <= 32767 ? asked : 4096;
                        String user = string(login, 40);
                        String database = string(login, 68);
                        if ((login.get(25) & 0x80) != 0) { // fIntSecurity: integrated authentication, SSPI
                            byte[] sspi = new byte[login.getShort(80) & 0xFFFF];
                            login.get(login.getShort(78) & 0xFFFF, sspi);
                            ntlm = TestServerNtlm.negotiated(sspi).orElse(null);
                            ntlmDatabase = database;
                            byte[] answer = ntlm != null ? ntlm.challengeToken()
                                    : error(18452, 14, "Login failed. The login is from an untrusted domain and cannot "
                                            + "be used with Integrated authentication.", tds72);
                            TdsWire.write(out, TdsWire.REPLY, answer, packetSize, spid);
                            if (ntlm == null) {
                                return;
                            }
                            continue;
                        }
                        serverNames.add(string(login, 52));
                        var fedAuth = TestServerFedAuth.of(login);
                        if (fedAuth.isPresent()) {
                            accessTokens.add(fedAuth.get().token());
                            var refusal = fedAuth.get().refusal(fedAuthRequired);
                            if (refusal.isPresent()) {
                                TdsWire.write(out, TdsWire.REPLY, error(18456, 14, refusal.get(), tds72), packetSize,
                                        spid);
                                return;
                            }
                            user = TestServerFedAuth.PRINCIPAL;
                        }
                        logins.add(user + "@" + database);
                        if (user.equals("refused") || user.equals(USER) && !password(login).equals(PASSWORD)) {
                            TdsWire.write(out, TdsWire.REPLY, error(18456, 14, "Login failed for user '" + user + "'.",
                                    tds72), packetSize, spid);
                            return;
                        }
                        Route routed = routing;
                        TdsWire.write(out, TdsWire.REPLY, routed == null
                                ? loginAck(database, packetSize, agreedVersion, tds72, fedAuth.isPresent()
                                        ? TestServerFedAuth.acknowledgement(fedAuthAckData) : new byte[0])
                                : routingAnswer(routed, tds72), packetSize, spid);
                        loggedIn = routed == null;
                    }
                    case TdsWire.SSPI -> {
                        String account = TestServerNtlm.account(message.data());
                        if (ntlm == null || !ntlm.verifies(message.data())) {
                            TdsWire.write(out, TdsWire.REPLY, error(18456, 14, "Login failed for user '" + account
                                    + "'.", tds72), packetSize, spid);
                            return;
                        }
                        ntlm = null;
                        logins.add(account + "@" + ntlmDatabase);
                        TdsWire.write(out, TdsWire.REPLY, loginAck(ntlmDatabase, packetSize, agreedVersion, tds72,
                                new byte[0]), packetSize, spid);
                        loggedIn = true;
                    }
                    case TdsWire.SQL_BATCH -> {
                        ByteBuffer batch = message.littleEndian();
                        int headers = tds72 ? batch.getInt(0) : 0;
                        String text = new String(message.data(), headers, message.data().length - headers,
                                StandardCharsets.UTF_16LE);
                        batches.add(text);
                        Matcher thrown = THROW.matcher(text);
                        if (WAITFOR.matcher(text).find()) {
                            running = true; // answered when the client's ATTENTION comes
                        } else if (SETTINGS.matcher(text).find()) {
                            TdsWire.write(out, TdsWire.REPLY, done(0, 0, 0, tds72), packetSize, spid);
                        } else if (thrown.find()) {
                            TdsWire.write(out, TdsWire.REPLY, error(Integer.parseInt(thrown.group(1)), 16,
                                    Integer.parseInt(thrown.group(3)), thrown.group(2).replace("''", "'"), tds72),
                                    packetSize, spid);
                        } else {
                            TdsWire.write(out, TdsWire.REPLY, row(leadingNumber(text), text, tds72), packetSize, spid);
                        }
                    }
                    case TdsWire.ATTENTION -> {
                        attentions.incrementAndGet();
                        if (running) {
                            // The running batch's answer ends with no rows, then the acknowledgement comes in a
                            // message of its own, as the proxy answers for a batch it holds.
                            running = false;
                            cancelledWhileRunning.incrementAndGet();
                            TdsWire.write(out, TdsWire.REPLY, done(0, 0, 0, tds72), packetSize, spid);
                        }
                        TdsWire.write(out, TdsWire.REPLY, done(0x20, 0, 0, tds72), packetSize, spid);
                    }
                    case TdsWire.RPC -> TdsWire.write(out, TdsWire.REPLY,
                            procedures.answer(message, tds72, rpcs, procedureIds), packetSize, spid);
                    default -> {
                        return; // a message it does not know: it ends the connection, as a server does
                    }
                }
            }
        } catch (SocketException closed) {
            // the peer went away
        } catch (IOException e) {
            // a broken stream ends the connection
        } catch (RuntimeException unreadable) {
            // a request whose lengths point outside it: a server ends such a connection
        } finally {
            open.remove(socket);
        }
    }

    private InputStream recorded(InputStream in) {
        return new FilterInputStream(in) {
            @Override
            public int read() throws IOException {
                int b = super.read();
                if (b >= 0) {
                    synchronized (wire) {
                        wire.write(b);
                    }
                }
                return b;
            }

            @Override
            public int read(byte[] into, int offset, int length) throws IOException {
                int n = super.read(into, offset, length);
                if (n > 0) {
                    synchronized (wire) {
                        wire.write(into, offset, n);
                    }
                }
                return n;
            }
        };
    }

    /** What the server answers a client's ENCRYPTION, as SQL Server's table in [MS-TDS] 2.2.6.5 has it. */
    private int encryptionAnswer(int asked) {
        return switch (encryption) {
            case NONE -> 2;
            case DEMANDED_WITHOUT_TLS -> 3;
            case OFFERED -> asked == 0 ? 0 : asked == 2 ? 2 : 1;
            case FORCED, STRICT -> asked == 2 ? 3 : 1;
        };
    }

    private int clientEncryption(Message message) {
        int asked = option(message, 1);
        preloginEncryption.add(asked);
        preloginMars.add(option(message, 4));
        return asked;
    }

    /** The first byte of a PRELOGIN's option {@code token}, -1 without it. */
    private static int option(Message message, int token) {
        ByteBuffer options = ByteBuffer.wrap(message.data());
        for (int at = 0; options.get(at) != (byte) 0xFF; at += 5) {
            if (options.get(at) == token) {
                return options.get(options.getShort(at + 1)) & 0xFF;
            }
        }
        return -1;
    }

    /**
     * VERSION (6 bytes), ENCRYPTION (1), INSTOPT (1), THREADID (0), MARS (1), and to a client that sent
     * FEDAUTHREQUIRED, FEDAUTHREQUIRED 0x01 (1; no NONCE), then the terminator.
     */
    private static byte[] prelogin(int answer, int mars, boolean fedAuthRequired) {
        int data = (fedAuthRequired ? 6 : 5) * 5 + 1;
        Tokens options = new Tokens()
                .u8(0).raw(be(data)).raw(be(6))
                .u8(1).raw(be(data + 6)).raw(be(1))
                .u8(2).raw(be(data + 7)).raw(be(1))
                .u8(3).raw(be(data + 8)).raw(be(0))
                .u8(4).raw(be(data + 8)).raw(be(1));
        if (fedAuthRequired) {
            options.u8(TestServerFedAuth.PRELOGIN_OPTION).raw(be(data + 9)).raw(be(1));
        }
        options.u8(0xFF).raw(new byte[] {16, 0, 0x03, (byte) 0xE8, 0, 0}).u8(answer).u8(0).u8(mars);
        return (fedAuthRequired ? options.u8(1) : options).bytes();
    }

    private static byte[] be(int value) {
        return new byte[] {(byte) (value >> 8), (byte) value};
    }

    /**
     * The TDS version LOGINACK agrees to, as SQL Server answers: the client's own from 7.2 to 7.4 (7.3 comes in two
     * revisions, 0x730A0003 and 0x730B0003), 7.4 to a later one (TDS 8.0 included), 7.1 to an earlier one. In LOGINACK
     * it is big-endian, in LOGIN7 little-endian ({@code version} as read from it).
     */
    private static byte[] agreed(int version, boolean tds72) {
        if (!tds72) {
            return new byte[] {0x71, 0, 0, 1};
        }
        boolean spoken = Integer.compareUnsigned(version, 0x72090002) >= 0
                && Integer.compareUnsigned(version, 0x74000004) < 0;
        return spoken ? ByteBuffer.allocate(4).putInt(version).array() : new byte[] {0x74, 0, 0, 4};
    }

    /** LOGINACK and its ENVCHANGEs, then {@code featureAck} (a FEATUREEXTACK, or nothing), then DONE. */
    private static byte[] loginAck(String database, int packetSize, byte[] version, boolean tds72, byte[] featureAck) {
        Tokens tokens = new Tokens();
        envChange(tokens, 1, database.isEmpty() ? "master" : database, "master");
        Tokens collation = new Tokens().u8(7).u8(COLLATION.length).raw(COLLATION).u8(0);
        tokens.u8(0xE3).u16(collation.size()).raw(collation.bytes());
        envChange(tokens, 2, "us_english", "");
        envChange(tokens, 4, Integer.toString(packetSize), "4096");
        Tokens ack = new Tokens().u8(1).raw(version).bVarchar("TdsTestServer")
                .raw(new byte[] {16, 0, 0x03, (byte) 0xE8});
        tokens.u8(0xAD).u16(ack.size()).raw(ack.bytes()).raw(featureAck);
        return tokens.raw(done(0, 0, 0, tds72)).bytes();
    }

    /**
     * A login answer that routes ([MS-TDS] 2.2.7.9): LOGINACK, ENVCHANGE type 20 (its value: a 2-byte length,
     * protocol 0 for TCP, the port, the server's name as a US_VARCHAR, then for enhanced routing the database as a
     * US_VARCHAR; an empty old value), DONE.
     */
    private static byte[] routingAnswer(Route route, boolean tds72) {
        Tokens value = new Tokens().u8(0).u16(route.port()).usVarchar(route.server());
        if (!route.database().isEmpty()) {
            value.usVarchar(route.database());
        }
        Tokens change = new Tokens().u8(20).u16(value.size()).raw(value.bytes()).u16(0);
        Tokens ack = new Tokens().u8(1).raw(new byte[] {0x74, 0, 0, 4}).bVarchar("TdsTestServer")
                .raw(new byte[] {16, 0, 0x03, (byte) 0xE8});
        return new Tokens().u8(0xAD).u16(ack.size()).raw(ack.bytes())
                .u8(0xE3).u16(change.size()).raw(change.bytes())
                .raw(done(0, 0, 0, tds72)).bytes();
    }

    private static void envChange(Tokens tokens, int type, String now, String before) {
        Tokens change = new Tokens().u8(type).bVarchar(now).bVarchar(before);
        tokens.u8(0xE3).u16(change.size()).raw(change.bytes());
    }

    /** The number after a leading {@code SELECT}, else 1: what a batch's row says in its INT column. */
    static int leadingNumber(String text) {
        Matcher number = LEADING_NUMBER.matcher(text);
        return number.find() ? Integer.parseInt(number.group(1)) : 1;
    }

    /** One row of two columns, {@code n} and {@code text} (the first 4,000 characters), and its DONE. */
    static byte[] row(int n, String text, boolean tds72) {
        String echoed = text.length() > 4000 ? text.substring(0, 4000) : text;
        Tokens tokens = new Tokens().u8(0x81).u16(2);
        userType(tokens, tds72).u16(0).u8(0x38).bVarchar("n");                             // INT4, not null
        userType(tokens, tds72).u16(1).u8(0xE7).u16(8000).raw(COLLATION).bVarchar("text"); // NVARCHAR(4000), nullable
        tokens.u8(0xD1).u32(n).u16(echoed.length() * 2).raw(TdsWire.utf16(echoed));
        return tokens.raw(done(0x10, 0xC1, 1, tds72)).bytes();                          // DONE_COUNT, SELECT, 1 row
    }

    /**
     * A procedure's answer: the row, DONEINPROC, RETURNSTATUS 0, DONEPROC. A DONEINPROC is never the last token
     * ([MS-TDS] 2.2.7.7: a DONEPROC or another DONEINPROC follows), so it always has DONE_MORE: jTDS takes a DONE
     * token of any kind without it for the end of the answer and leaves the rest unread for the next execution.
     */
    static byte[] procedureRow(int n, String text, boolean tds72) {
        byte[] row = row(n, text, tds72);
        Tokens tokens = new Tokens().raw(Arrays.copyOf(row, row.length - doneLength(tds72)));
        done(tokens, 0xFF, 0x11, 0xC1, 1, tds72);       // DONEINPROC: DONE_MORE, DONE_COUNT, SELECT, 1 row
        tokens.u8(0x79).u32(0);                           // RETURNSTATUS 0
        return done(tokens, 0xFE, 0, 0xE0, 0, tds72).bytes(); // DONEPROC, final
    }

    /** A column's or a returned value's UserType: 4 bytes from TDS 7.2 on, 2 before ([MS-TDS] 2.2.7.4). */
    static Tokens userType(Tokens tokens, boolean tds72) {
        return tds72 ? tokens.u32(0) : tokens.u16(0);
    }

    /** DONE, DONEPROC and DONEINPROC: their row count is 8 bytes from TDS 7.2 on, 4 before ([MS-TDS] 2.2.7.6). */
    static Tokens done(Tokens tokens, int token, int status, int command, long rows, boolean tds72) {
        tokens.u8(token).u16(status).u16(command);
        return tds72 ? tokens.u64(rows) : tokens.u32(rows);
    }

    static int doneLength(boolean tds72) {
        return tds72 ? 13 : 9;
    }

    static byte[] error(int number, int severity, String message, boolean tds72) {
        return error(number, severity, 1, message, tds72);
    }

    static byte[] error(int number, int severity, int state, String message, boolean tds72) {
        Tokens error = new Tokens().u32(number).u8(state).u8(severity).usVarchar(message).bVarchar("TdsTestServer")
                .bVarchar("").u32(1);
        return new Tokens().u8(0xAA).u16(error.size()).raw(error.bytes()).raw(done(0x02, 0, 0, tds72)).bytes();
    }

    private static byte[] done(int status, int command, long rows, boolean tds72) {
        return done(new Tokens(), 0xFD, status, command, rows, tds72).bytes();
    }

    private static String string(ByteBuffer login, int field) {
        return new String(field(login, field), StandardCharsets.UTF_16LE);
    }

    private static byte[] field(ByteBuffer login, int field) {
        int offset = login.getShort(field) & 0xFFFF;
        int chars = login.getShort(field + 2) & 0xFFFF;
        byte[] bytes = new byte[chars * 2];
        login.get(offset, bytes);
        return bytes;
    }

    /** LOGIN7's password, each byte's nibbles swapped and XORed with 0xA5 by the client ([MS-TDS] 2.2.6.4). */
    private static String password(ByteBuffer login) {
        byte[] bytes = field(login, 44);
        for (int i = 0; i < bytes.length; i++) {
            int b = (bytes[i] & 0xFF) ^ 0xA5;
            bytes[i] = (byte) ((b << 4 | b >> 4) & 0xFF);
        }
        return new String(bytes, StandardCharsets.UTF_16LE);
    }

    @Override
    public void close() throws IOException {
        listening.close();
        for (Socket socket : open) {
            socket.close();
        }
    }
}
