package io.memogate.proxy.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.memogate.proxy.admission.Admission;
import io.memogate.proxy.admission.AdmissionHook;
import io.memogate.proxy.admission.ImmediateAdmission;
import io.memogate.proxy.config.NetworkTransport;
import io.memogate.proxy.config.ServerTlsConfig;
import io.memogate.proxy.config.TcpKeepalive;
import io.memogate.proxy.config.TlsMode;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import io.memogate.proxy.postgres.embedded.SelfSignedCertificate;
import io.memogate.proxy.it.RawPgClient.Message;
import io.memogate.proxy.server.ProxyServer;
import io.memogate.proxy.testing.Await;
import io.netty.channel.uring.IoUring;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.postgresql.util.PSQLException;
import org.slf4j.LoggerFactory;

/**
 * Bad input and faults: each is answered in PostgreSQL's own terms, affects only the connection it
 * happened on, and loses nothing of the other sessions.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class FaultsIT {

    private static final String TRUSTED = "memogate_trust";

    @Test
    void unknownMessageTypeIsAProtocolViolationForThatConnectionOnly(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).start();
                RawPgClient bystander = new RawPgClient(proxy.port());
                RawPgClient offender = new RawPgClient(proxy.port())) {
            assertReady(bystander.startup(TRUSTED, "demo"));
            assertReady(offender.startup(TRUSTED, "demo"));

            offender.send('z', new byte[] {1, 2, 3});

            Message error = offender.read();
            assertThat(error.type()).isEqualTo('E');
            assertThat(error.sqlState()).isEqualTo("08P01");
            assertThat(error.fields().get('M')).contains("unknown message type 'z'")
                    .as("its length was fine").doesNotContain("invalid message length");
            assertThat(offender.closedByPeer()).isTrue();
            assertQueryWorks(bystander);
        }
    }

    /**
     * Terminate after pipelined statements: PostgreSQL runs and answers every one before it reaches the
     * Terminate and exits, whether the client waits for the answers or leaves at once. Through the proxy
     * too: it lets the server close the connection rather than closing it under the running statements.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void statementsPipelinedBeforeTerminateAllRun(boolean clientWaitsForTheEnd, EmbeddedPostgres pg) throws Exception {
        String table = tableAnyoneMayInsertInto(pg, "terminated");
        int statements = 20;
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).start();
                RawPgClient client = new RawPgClient(proxy.port())) {
            assertReady(client.startup(TRUSTED, "demo"));
            for (int i = 0; i < statements; i++) {
                client.query("insert into " + table + " values (" + i + "); select pg_sleep(0.01)");
            }
            client.send('X', new byte[0]);
            if (clientWaitsForTheEnd) {
                List<Message> answers = client.readUntilClosed();
                assertThat(answers).filteredOn(m -> m.type() == 'Z').as("answered every query").hasSize(statements);
            } else {
                client.close();
            }
        }
        // A client that left does not wait for the server: it may still be running them.
        Await.until("the " + statements + " rows inserted before the Terminate", () -> rows(pg, table) == statements);
    }

    /** A new table {@code prefix_<n>(i int)} in demo, so that each test counts its own rows. */
    static String tableAnyoneMayInsertInto(EmbeddedPostgres pg, String prefix) throws Exception {
        String table = prefix + "_" + System.nanoTime();
        pg.execute("demo", "create table " + table + " (i int)", "grant insert on " + table + " to public");
        return table;
    }

    static int rows(EmbeddedPostgres pg, String table) throws Exception {
        try (Connection admin = pg.connect("demo"); Statement statement = admin.createStatement();
                ResultSet count = statement.executeQuery("select count(*) from " + table)) {
            count.next();
            return count.getInt(1);
        }
    }

    /**
     * A bad message after pipelined statements: PostgreSQL answers each statement before it reads the bad
     * message, then sends its FATAL. Through the proxy too, so that a client never retries statements
     * that ran: the statements' answers come first, then the 08P01.
     */
    @ParameterizedTest
    @ValueSource(strings = {"length 0", "unknown type"})
    void statementsSentBeforeABadMessageAreAnsweredBeforeItsFatal(String badMessage, EmbeddedPostgres pg)
            throws Exception {
        String table = tableAnyoneMayInsertInto(pg, "answered");
        int statements = 10;
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).start();
                RawPgClient client = new RawPgClient(proxy.port())) {
            assertReady(client.startup(TRUSTED, "demo"));
            for (int i = 0; i < statements; i++) {
                client.query("insert into " + table + " values (" + i + "); select pg_sleep(0.02)");
            }
            if (badMessage.equals("length 0")) {
                client.sendRaw(new byte[] {'Q', 0, 0, 0, 0});
            } else {
                client.send('z', new byte[] {1, 2, 3});
            }
            List<Message> answers = client.readUntilClosed();
            assertThat(answers).filteredOn(m -> m.type() == 'Z').as("every statement answered").hasSize(statements);
            assertThat(answers).last().satisfies(last -> {
                assertThat(last.type()).isEqualTo('E');
                assertThat(last.sqlState()).isEqualTo("08P01");
            });
        }
        assertThat(rows(pg, table)).isEqualTo(statements);
    }

    /** PostgreSQL answers an SSLRequest once per connection; a second one is FATAL 0A000, as from it. */
    @Test
    void aSecondSslRequestIsRefusedAsPostgresqlRefusesIt(EmbeddedPostgres pg) throws Exception {
        byte[] sslRequest = {0, 0, 0, 8, 4, (byte) 0xd2, 0x16, 0x2f};
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).start();
                RawPgClient client = new RawPgClient(proxy.port())) {
            client.setReadTimeout(10_000);
            client.sendRaw(sslRequest);
            assertThat(client.input().readByte()).as("no TLS on this listener").isEqualTo((byte) 'N');
            client.sendRaw(sslRequest);
            Message error = client.read();
            assertThat(error.sqlState()).isEqualTo("0A000");
            assertThat(error.fields().get('M')).startsWith("unsupported frontend protocol 1234.5679");
            assertThat(client.closedByPeer()).isTrue();
        }
    }

    /** A Sync longer than PostgreSQL takes: its FATAL names the length once, in PostgreSQL's words. */
    @Test
    void aShortTypeOverPostgresqlBoundIsNamedOnce(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).start();
                RawPgClient client = new RawPgClient(proxy.port())) {
            assertReady(client.startup(TRUSTED, "demo"));
            client.setReadTimeout(10_000);
            client.sendRaw(new byte[] {'S', 0, 0, 0x4e, 0x20}); // a Sync of 20000 bytes
            Message error = client.read();
            assertThat(error.sqlState()).isEqualTo("08P01");
            assertThat(error.fields().get('M'))
                    .isEqualTo("invalid frontend message: invalid message length: a 'S' message of 20000 bytes,"
                            + " where PostgreSQL takes at most 10000");
            assertThat(client.closedByPeer()).isTrue();
        }
    }

    /** PostgreSQL answers an SSLRequest sent after login at once; the proxy too, not after waiting for a body. */
    @Test
    void anSslRequestAfterLoginIsAProtocolViolationAnsweredAtOnce(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).start();
                RawPgClient client = new RawPgClient(proxy.port())) {
            assertReady(client.startup(TRUSTED, "demo"));
            client.setReadTimeout(10_000);
            client.sendRaw(new byte[] {0, 0, 0, 8, 4, (byte) 0xd2, 0x16, 0x2f});
            Message error = client.read();
            assertThat(error.sqlState()).isEqualTo("08P01");
            assertThat(error.fields().get('M')).contains("unknown message type '\\x00'");
            assertThat(client.closedByPeer()).isTrue();
        }
    }

    @Test
    void aLengthThatCannotHoldItselfIsAProtocolViolation(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).start();
                RawPgClient client = new RawPgClient(proxy.port())) {
            assertReady(client.startup(TRUSTED, "demo"));
            client.sendRaw(new byte[] {'Q', 0, 0, 0, 2}); // length 2 < 4
            Message error = client.read();
            assertThat(error.sqlState()).isEqualTo("08P01");
            assertThat(error.fields().get('M')).contains("invalid message length");
            assertThat(client.closedByPeer()).isTrue();
        }
    }

    @Test
    void aMessageOverTheConfiguredMaximumIsRefusedBeforeItIsRead(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).maxMessageBytes(8192).start();
                RawPgClient client = new RawPgClient(proxy.port())) {
            assertReady(client.startup(TRUSTED, "demo"));
            client.query("select '" + "x".repeat(20_000) + "'");
            Message error = client.read();
            assertThat(error.sqlState()).isEqualTo("08P01");
            assertThat(error.fields().get('M')).contains("message too long").contains("limits.maxMessageBytes");
            assertThat(error.fields().get('H')).as("a statement this long is plausible: raise the limit")
                    .contains("raise limits.maxMessageBytes").doesNotContain("not a valid");
            assertThat(client.closedByPeer()).isTrue();
        }
    }

    /**
     * A driver still writing a message over the limit when the proxy refuses it reads the FATAL, not a
     * connection reset: the proxy drains what follows before it closes, with TLS as without.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aDriverStillSendingAQueryOverTheLimitReadsWhy(boolean tls, EmbeddedPostgres pg, @TempDir Path dir)
            throws Exception {
        ProxyFixture.Builder builder = ProxyFixture.to(pg.host(), pg.port()).maxMessageBytes(16 * 1024);
        String[] properties = {};
        if (tls) {
            SelfSignedCertificate certificate = SelfSignedCertificate.generate(dir);
            builder.listenerTls(new ServerTlsConfig(certificate.certificateFile(), certificate.keyFile()));
            properties = new String[] {"sslmode", "require"};
        }
        try (ProxyFixture proxy = builder.start();
                Connection connection = proxy.connect("demo", "memogate", "memogate", properties);
                Statement statement = connection.createStatement()) {
            String query = "select '" + "x".repeat(4 * 1024 * 1024) + "'"; // more than the sockets' buffers hold
            assertThatThrownBy(() -> statement.execute(query)).isInstanceOfSatisfying(PSQLException.class, e -> {
                assertThat(e.getSQLState()).isEqualTo("08P01");
                assertThat(e.getMessage()).contains("message too long").contains("limits.maxMessageBytes");
            });
        }
    }

    /**
     * A client on a slow link still sending a message over the limit, for twice as long as it may pause:
     * the proxy drains while bytes keep coming, so the client finishes and reads the FATAL.
     */
    @Test
    void aSlowClientStillSendingAQueryOverTheLimitReadsWhy(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).maxMessageBytes(16 * 1024).start();
                RawPgClient client = new RawPgClient(proxy.port())) {
            assertReady(client.startup(TRUSTED, "demo"));
            byte[] chunk = new byte[8192];
            Arrays.fill(chunk, (byte) 'x');
            int chunks = 40; // one every 100 ms: 4 s, twice the 2 s a client may pause (LingeringClose)
            client.sendRaw(ByteBuffer.allocate(5).put((byte) 'Q').putInt(4 + chunks * chunk.length + 1).array());
            for (int i = 0; i < chunks; i++) {
                client.sendRaw(chunk);
                Thread.sleep(100); // the slow link is what is tested: there is no state to wait for
            }
            client.sendRaw(new byte[] {0}); // the query's NUL: the whole message is sent
            Message error = client.read();
            assertThat(error.sqlState()).isEqualTo("08P01");
            assertThat(error.fields().get('M')).contains("message too long");
            assertThat(client.closedByPeer()).isTrue();
        }
    }

    /**
     * Whether or not the admission hook reads statements: with gateways off the proxy checks a Query or Bind
     * without decoding it, and must refuse the same frames.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aMalformedBodyIsAProtocolViolation(boolean hookReadsStatements, EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).admission(hook(hookReadsStatements)).start();
                RawPgClient client = new RawPgClient(proxy.port())) {
            assertReady(client.startup(TRUSTED, "demo"));
            client.send('Q', "select 1".getBytes(StandardCharsets.UTF_8)); // no terminating NUL
            Message error = client.read();
            assertThat(error.sqlState()).isEqualTo("08P01");
            assertThat(error.fields().get('M')).contains("NUL");
            assertThat(client.closedByPeer()).isTrue();
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aBindWithoutItsStatementNameIsAProtocolViolation(boolean hookReadsStatements, EmbeddedPostgres pg)
            throws Exception {
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).admission(hook(hookReadsStatements)).start();
                RawPgClient client = new RawPgClient(proxy.port())) {
            assertReady(client.startup(TRUSTED, "demo"));
            client.send('B', new byte[] {0, 's', '1'}); // the portal name, then a statement name cut short
            Message error = client.read();
            assertThat(error.sqlState()).isEqualTo("08P01");
            assertThat(error.fields().get('M')).contains("NUL");
            assertThat(client.closedByPeer()).isTrue();
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aParseCutShortInItsParameterCountIsAProtocolViolation(boolean hookReadsStatements, EmbeddedPostgres pg)
            throws Exception {
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).admission(hook(hookReadsStatements)).start();
                RawPgClient client = new RawPgClient(proxy.port())) {
            assertReady(client.startup(TRUSTED, "demo"));
            client.send('P', "\0select 1\0\0".getBytes(StandardCharsets.UTF_8)); // one of the count's two bytes
            Message error = client.read();
            assertThat(error.sqlState()).isEqualTo("08P01");
            assertThat(error.fields().get('M')).contains("before its last field");
            assertThat(client.closedByPeer()).isTrue();
        }
    }

    /** The proxy's own relay-only hook, or one that admits the same but declares that it reads statements. */
    private static AdmissionHook hook(boolean readsStatements) {
        return readsStatements ? request -> Admission.IMMEDIATE : new ImmediateAdmission();
    }

    @Test
    void unknownDatabaseWithoutDefaultBackendIsRefusedLikePostgres(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).onlyDatabases("demo").start()) {
            assertThatThrownBy(() -> proxy.connect("nowhere", "memogate", "memogate"))
                    .isInstanceOfSatisfying(PSQLException.class, e -> {
                        assertThat(e.getSQLState()).isEqualTo("3D000");
                        assertThat(e.getMessage()).contains("database \"nowhere\" does not exist");
                    });
            try (Connection routed = proxy.connect("demo", "memogate", "memogate")) {
                assertThat(routed.isValid(5)).isTrue();
            }
        }
    }

    @Test
    void unreachableBackendIsNamedWithTheCause() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        try (ProxyFixture proxy = ProxyFixture.to("127.0.0.1", closedPort).start()) {
            assertThatThrownBy(() -> proxy.connect("demo", "memogate", "memogate"))
                    .isInstanceOfSatisfying(PSQLException.class, e -> {
                        assertThat(e.getSQLState()).isEqualTo("08001");
                        assertThat(e.getServerErrorMessage().getMessage()).isEqualTo("Memogate could not connect to "
                                + "backend \"test\" at 127.0.0.1:" + closedPort + ": connection refused");
                        assertThat(e.getServerErrorMessage().getHint()).contains("accepts TCP connections");
                    });
        }
    }

    /**
     * A backend that is not a PostgreSQL server (here an HTTP port, as a MySQL port would be): the client
     * gets a FATAL naming the backend and what it answered, not the server's bytes taken for messages.
     */
    @ParameterizedTest
    @ValueSource(strings = {"http", "mariadb"})
    void aBackendThatIsNotPostgresIsNamed(String server) throws Exception {
        // A MariaDB greeting of 82 bytes starts with 'R', as an authentication request does: its code tells.
        byte[] answer = server.equals("http")
                ? "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII)
                : ByteBuffer.allocate(86).put(new byte[] {82, 0, 0, 0, 10})
                        .put("5.5.5-10.11.6-MariaDB".getBytes(StandardCharsets.US_ASCII)).array();
        String why = server.equals("http") ? "its first byte was 0x48 ('H')"
                : "its first message was an authentication request of a kind PostgreSQL has not";
        // Not the common pool: on two cores it has one thread, and the fake server blocks it.
        try (ServerSocket notPostgres = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                ExecutorService serverThread = Executors.newSingleThreadExecutor()) {
            Future<?> answered = serverThread.submit(() -> answerOnce(notPostgres, answer));
            try (ProxyFixture proxy = ProxyFixture.to("127.0.0.1", notPostgres.getLocalPort()).start()) {
                assertThatThrownBy(() -> proxy.connect("demo", "memogate", "memogate"))
                        .isInstanceOfSatisfying(PSQLException.class, e -> {
                            assertThat(e.getSQLState()).isEqualTo("08001");
                            assertThat(e.getMessage()).contains("backend \"test\"")
                                    .contains("127.0.0.1:" + notPostgres.getLocalPort())
                                    .contains("does not speak PostgreSQL's protocol: " + why);
                        });
            }
            answered.get(10, TimeUnit.SECONDS);
        }
    }

    /**
     * A server whose BackendKeyData is cut short, or whose length word cannot hold itself: the client is
     * told, not left with "server closed the connection unexpectedly".
     */
    @ParameterizedTest
    @ValueSource(strings = {"key cut short", "length under 4"})
    void aMalformedMessageFromTheServerIsNamed(String fault) throws Exception {
        byte[] answer = fault.equals("key cut short")
                ? new byte[] {'R', 0, 0, 0, 8, 0, 0, 0, 0,   // AuthenticationOk
                              'K', 0, 0, 0, 6, 0, 1}         // BackendKeyData with 2 of its at least 8 bytes
                : new byte[] {'R', 0, 0, 0, 2};              // a length that does not count itself
        try (ServerSocket broken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                ExecutorService serverThread = Executors.newSingleThreadExecutor()) {
            Future<?> answered = serverThread.submit(() -> answerOnce(broken, answer));
            try (ProxyFixture proxy = ProxyFixture.to("127.0.0.1", broken.getLocalPort()).start()) {
                assertThatThrownBy(() -> proxy.connect("demo", "memogate", "memogate"))
                        .isInstanceOfSatisfying(PSQLException.class, e -> {
                            assertThat(e.getSQLState()).isEqualTo("08P01");
                            assertThat(e.getMessage()).contains("malformed message from backend \"test\"");
                        });
            }
            answered.get(10, TimeUnit.SECONDS);
        }
    }

    /** Accepts one connection, reads the proxy's StartupMessage, sends {@code answer}, waits for the close. */
    private static Void answerOnce(ServerSocket server, byte[] answer) throws IOException {
        try (Socket connection = server.accept()) {
            connection.getInputStream().read(new byte[1024]);
            connection.getOutputStream().write(answer);
            connection.getInputStream().read();
        }
        return null;
    }

    /**
     * A backend that accepts the connection and never answers (a stopped server, a port whose server waits
     * for the client to speak first): after limits.connectTimeout the client gets a FATAL, with or without
     * an SSLRequest first, where it would otherwise wait for as long as it is willing to.
     */
    @ParameterizedTest
    @EnumSource(value = TlsMode.class, names = {"DISABLE", "PREFER"})
    void aBackendThatNeverAnswersIsNamedAfterTheConnectTimeout(TlsMode tls) throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                ProxyFixture proxy = ProxyFixture.to("127.0.0.1", silent.getLocalPort()).backendTls(tls)
                        .connectTimeout(Duration.ofMillis(500)).start()) {
            assertThatThrownBy(() -> proxy.connect("demo", "memogate", "memogate"))
                    .isInstanceOfSatisfying(PSQLException.class, e -> {
                        assertThat(e.getSQLState()).isEqualTo("08001");
                        assertThat(e.getMessage()).contains("backend \"test\"")
                                .contains("no answer from the server within 500ms (limits.connectTimeout)");
                    });
        }
    }

    @Test
    void backendConnectionCutMidQueryEndsThatSessionOnly(EmbeddedPostgres pg) throws Exception {
        try (TcpRelay relay = new TcpRelay(pg.port());
                ProxyFixture cut = ProxyFixture.to("127.0.0.1", relay.port()).start();
                ProxyFixture healthy = ProxyFixture.to(pg.host(), pg.port()).start();
                Connection victim = cut.connect("demo", "memogate", "memogate");
                Connection bystander = healthy.connect("demo", "memogate", "memogate")) {
            Future<?> running = CompletableFuture.runAsync(() -> {
                try (Statement statement = victim.createStatement()) {
                    statement.execute("select pg_sleep(30)");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            awaitActiveQuery(pg, "pg_sleep(30)");
            relay.cutAll();

            assertThatThrownBy(() -> running.get(20, TimeUnit.SECONDS))
                    .hasRootCauseInstanceOf(PSQLException.class)
                    .rootCause()
                    .satisfies(e -> assertThat(((PSQLException) e).getSQLState()).startsWith("08"));
            assertThat(victim.isValid(2)).isFalse();
            try (Statement statement = bystander.createStatement(); ResultSet rows = statement.executeQuery("select 42")) {
                rows.next();
                assertThat(rows.getInt(1)).isEqualTo(42);
            }
        }
    }

    @Test
    void serverEndingTheSessionPassesItsOwnErrorThrough(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).start();
                Connection victim = proxy.connect("demo", "memogate", "memogate");
                Connection admin = pg.connect("demo")) {
            int serverPid;
            try (Statement statement = victim.createStatement(); ResultSet rows = statement.executeQuery("select pg_backend_pid()")) {
                rows.next();
                serverPid = rows.getInt(1);
            }
            try (Statement statement = admin.createStatement()) {
                statement.execute("select pg_terminate_backend(" + serverPid + ")");
            }
            assertThatThrownBy(() -> victim.createStatement().execute("select 1"))
                    .isInstanceOf(PSQLException.class);
            assertThat(victim.isValid(2)).isFalse();
        }
    }

    @Test
    void clientVanishingMidQueryStopsTheServerWork(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).start()) {
            String marker = "vanish_" + System.nanoTime();
            try (RawPgClient client = new RawPgClient(proxy.port())) {
                assertReady(client.startup(TRUSTED, "demo"));
                client.query("select pg_sleep(60) /* " + marker + " */");
                awaitActiveQuery(pg, marker);
            } // the socket closes here, mid-query
            awaitNoActiveQuery(pg, marker);
            assertThat(proxy.awaitSessionCount(0)).isZero();
        }
    }

    @Test
    void aConnectionThatSendsNoStartupPacketInTimeIsClosedAndFreesItsSlot(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).loginTimeout(Duration.ofMillis(500))
                .maxClientConnections(2).start();
                RawPgClient silent = new RawPgClient(proxy.port());
                RawPgClient partial = new RawPgClient(proxy.port())) {
            partial.sendRaw(new byte[] {0, 0, 0, 40, 0, 3}); // the start of a StartupMessage, never finished
            assertThat(proxy.awaitSessionCount(2)).as("both hold a slot at first").isEqualTo(2);

            assertThat(silent.closedByPeer()).as("a connection that says nothing").isTrue();
            assertThat(partial.closedByPeer()).as("a startup packet left unfinished").isTrue();
            assertThat(proxy.awaitSessionCount(0)).as("their slots are free again").isZero();

            // A client that logged in may then idle for longer than the timeout: it only bounds the login.
            try (RawPgClient client = new RawPgClient(proxy.port())) {
                assertReady(client.startup(TRUSTED, "demo"));
                proxy.awaitTimersDue(Duration.ofMillis(500)); // a login timer left running has fired
                assertQueryWorks(client);
            }
        }
    }

    /** Each transport spells the keepalive options its own way. */
    @ParameterizedTest
    @EnumSource(value = NetworkTransport.class, names = {"EPOLL", "IO_URING", "NIO"})
    void bothLegsProbeForAVanishedPeerAfterTheConfiguredIdleTime(NetworkTransport transport, EmbeddedPostgres pg)
            throws Exception {
        assumeTrue(transport != NetworkTransport.IO_URING || IoUring.isAvailable(),
                () -> "io_uring cannot be used here: " + IoUring.unavailabilityCause());
        TcpKeepalive keepalive = new TcpKeepalive(Duration.ofSeconds(30), Duration.ofSeconds(5), 3);
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).transport(transport).keepalive(keepalive).start();
                Connection connection = proxy.connect("demo", "memogate", "memogate")) {
            assertThat(connection.isValid(2)).isTrue();

            assertThat(TcpTable.awaitKeepalive(socket -> socket.localPort() == proxy.port()))
                    .as("the client's leg, on the proxy's side").singleElement()
                    .satisfies(socket -> assertProbedAfter(socket, keepalive.idle()));
            // pgjdbc's own sockets have no keepalive (tcpKeepAlive=false): the one that does is the proxy's.
            assertThat(TcpTable.awaitKeepalive(socket -> socket.remotePort() == pg.port() && socket.keepaliveTimer()))
                    .as("the server's leg").singleElement()
                    .satisfies(socket -> assertProbedAfter(socket, keepalive.idle()));
        }
        // Without the setting, keepalive is still on, with the system's idle time (as PostgreSQL's sockets).
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).start();
                Connection connection = proxy.connect("demo", "memogate", "memogate")) {
            assertThat(connection.isValid(2)).isTrue();
            assertThat(TcpTable.awaitKeepalive(socket -> socket.localPort() == proxy.port()))
                    .singleElement().satisfies(socket -> assertThat(socket.keepaliveTimer()).isTrue());
        }
    }

    private static void assertProbedAfter(TcpTable.Socket socket, Duration idle) {
        assertThat(socket.keepaliveTimer()).as("keepalive timer running").isTrue();
        assertThat(socket.timerSeconds()).as("seconds to the first probe")
                .isBetween(idle.toSeconds() - 10.0, (double) idle.toSeconds());
    }

    /** The log says the wait as the configuration writes it (500ms, not PT0.5S) and counts in words. */
    @Test
    void shutdownLetsIdleSessionsGoWithAFatalMessage(EmbeddedPostgres pg) throws Exception {
        ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).shutdownTimeout(Duration.ofMillis(500)).start();
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        Logger serverLog = (Logger) LoggerFactory.getLogger(ProxyServer.class);
        log.start();
        serverLog.addAppender(log);
        try (RawPgClient client = new RawPgClient(proxy.port())) {
            assertReady(client.startup(TRUSTED, "demo"));
            proxy.close();
            Message fatal = client.read();
            assertThat(fatal.type()).isEqualTo('E');
            assertThat(fatal.sqlState()).isEqualTo("57P01");
            assertThat(client.closedByPeer()).isTrue();
        } finally {
            serverLog.detachAppender(log);
        }
        assertThatThrownBy(() -> new RawPgClient(proxy.port()).startup(TRUSTED, "demo"))
                .as("no longer accepting").isInstanceOf(java.io.IOException.class);
        assertThat(log.list).extracting(ILoggingEvent::getFormattedMessage).contains(
                "stopped accepting; waiting up to 500ms for 1 session to end",
                "closing 1 session still open after 500ms");
    }

    static void assertReady(List<Message> startup) {
        assertThat(startup).last().satisfies(last -> assertThat(last.type())
                .as("startup ended with %s", last.type() == 'E' ? last.fields() : last.type()).isEqualTo('Z'));
    }

    static void assertQueryWorks(RawPgClient client) throws Exception {
        client.query("select 'alive'");
        List<Message> answer = client.readUntilReady();
        assertThat(answer).extracting(Message::type).containsExactly('T', 'D', 'C', 'Z');
    }

    static void awaitActiveQuery(EmbeddedPostgres pg, String fragment) throws Exception {
        awaitActivity(pg, fragment, true);
    }

    static void awaitNoActiveQuery(EmbeddedPostgres pg, String fragment) throws Exception {
        awaitActivity(pg, fragment, false);
    }

    /** Polls pg_stat_activity until a query containing the fragment is (or is no longer) running. */
    private static void awaitActivity(EmbeddedPostgres pg, String fragment, boolean present) throws Exception {
        try (Connection admin = pg.connect("demo");
                var statement = admin.prepareStatement(
                        "select count(*) from pg_stat_activity where state = 'active' and query like ? and pid <> pg_backend_pid()")) {
            statement.setString(1, "%" + fragment + "%");
            String what = (present ? "a" : "no") + " server process runs a query containing " + fragment;
            Await.until(what, () -> {
                try (ResultSet rows = statement.executeQuery()) {
                    rows.next();
                    return (rows.getInt(1) > 0) == present;
                }
            });
        }
    }
}
