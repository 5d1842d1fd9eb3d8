package io.memogate.proxy.it;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.memogate.proxy.it.RawPgClient.Message;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import io.memogate.proxy.postgres.embedded.TestUsers;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;

/**
 * A connection's first bytes, sent to PostgreSQL and to the proxy in front of it: each fault before the
 * StartupMessage is whole is answered by both alike (ProcessStartupPacket in PostgreSQL's
 * backend_startup.c). What PostgreSQL only writes to its log (COMMERROR) closes the connection without a
 * byte; what it reports with FATAL reaches the client.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class StartupFaultsIT {

    private static byte[] startupMessage(int protocolVersion, String... parameters) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (String parameter : parameters) {
            body.writeBytes(parameter.getBytes(StandardCharsets.UTF_8));
            body.write(0);
        }
        body.write(0);
        return ByteBuffer.allocate(8 + body.size()).putInt(8 + body.size()).putInt(protocolVersion)
                .put(body.toByteArray()).array();
    }

    private static byte[] concat(byte[] first, byte[] second) {
        return ByteBuffer.allocate(first.length + second.length).put(first).put(second).array();
    }

    private static byte[] lengthWord(int length) {
        return ByteBuffer.allocate(4).putInt(length).array();
    }

    static Stream<Arguments> faultsPostgresqlOnlyLogs() {
        byte[] login = startupMessage(3 << 16, "user", TestUsers.TRUST_USER, "database", "demo");
        return Stream.of(
                // node-postgres, when connect() and end() come at once: its Terminate goes out first,
                // and 'X' 00 00 00 is read as the length 0x58000000
                Arguments.of("a Terminate before the StartupMessage", concat(new byte[] {'X', 0, 0, 0, 4}, login),
                        false, "invalid length of startup packet"),
                Arguments.of("a length word alone", lengthWord(4), false, "invalid length of startup packet"),
                Arguments.of("a length of 0", lengthWord(0), false, "invalid length of startup packet"),
                Arguments.of("a length of 7", lengthWord(7), false, "invalid length of startup packet"),
                Arguments.of("a negative length", lengthWord(0xffffffff), false, "invalid length of startup packet"),
                Arguments.of("a length of 2 GB", lengthWord(0x7fffffff), false, "invalid length of startup packet"),
                Arguments.of("a length over 10004", concat(lengthWord(10_005), new byte[] {0, 3, 0, 0}), false,
                        "invalid length of startup packet"),
                Arguments.of("a cancel request without its process id", new byte[] {0, 0, 0, 8, 4, (byte) 0xd2, 0x16, 0x2e},
                        false, "invalid length of query cancel packet"),
                Arguments.of("a cancel request without its secret",
                        new byte[] {0, 0, 0, 12, 4, (byte) 0xd2, 0x16, 0x2e, 0, 0, 0x30, 0x39}, false,
                        "invalid length of query cancel key"),
                Arguments.of("a StartupMessage left unfinished", new byte[] {0, 0, 0, 40, 0, 3}, true, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("faultsPostgresqlOnlyLogs")
    void aFaultPostgresqlOnlyLogsClosesTheConnectionWithoutAByte(String fault, byte[] bytes, boolean thenEndOutput,
            String logged, EmbeddedPostgres pg) throws Exception {
        assertThat(answer(pg.port(), bytes, thenEndOutput)).as("PostgreSQL's answer").isEmpty();

        ListAppender<ILoggingEvent> log = new ListAppender<>();
        Logger startupLog = (Logger) LoggerFactory.getLogger("io.memogate.proxy.pg.session.StartupPhase");
        log.start();
        startupLog.addAppender(log);
        // The login timeout is the default minute: a close within the read timeout is the fault's.
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).start()) {
            assertThat(answer(proxy.port(), bytes, thenEndOutput)).as("the proxy's answer").isEmpty();
            assertThat(proxy.awaitSessionCount(0)).isZero();
            assertThat(proxy.server().serverConnectionCount()).as("no server connection opened").isZero();
        } finally {
            startupLog.detachAppender(log);
        }
        if (logged != null) {
            assertThat(log.list).extracting(ILoggingEvent::getFormattedMessage)
                    .anySatisfy(line -> assertThat(line).contains("127.0.0.1").endsWith(": " + logged));
        }
    }

    static Stream<Arguments> faultsPostgresqlAnswers() {
        byte[] unterminated = ByteBuffer.allocate(13).putInt(13).putInt(3 << 16).put("user".getBytes(StandardCharsets.UTF_8))
                .put((byte) 0).array();
        return Stream.of(
                Arguments.of("parameters without their terminator", unterminated, "08P01"),
                Arguments.of("protocol 4.0", startupMessage(4 << 16, "user", TestUsers.TRUST_USER), "0A000"),
                Arguments.of("no user name", startupMessage(3 << 16, "database", "demo"), "28000"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("faultsPostgresqlAnswers")
    void aFaultPostgresqlAnswersGetsItsFatal(String fault, byte[] bytes, String sqlState, EmbeddedPostgres pg)
            throws Exception {
        Message server = answer(pg.port(), bytes, false).orElseThrow();
        assertThat(server.sqlState()).as("PostgreSQL's answer").isEqualTo(sqlState);
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).start()) {
            Message proxied = answer(proxy.port(), bytes, false).orElseThrow();
            assertThat(proxied.fields().get('S')).isEqualTo("FATAL");
            assertThat(proxied.sqlState()).isEqualTo(sqlState);
            assertThat(proxied.fields().get('M')).as("in PostgreSQL's words").contains(server.fields().get('M'));
        }
    }

    /** The first message a peer answers {@code bytes} with, or empty when it closes without a byte. */
    private static Optional<Message> answer(int port, byte[] bytes, boolean thenEndOutput) throws IOException {
        try (RawPgClient client = new RawPgClient(port)) {
            client.setReadTimeout(10_000);
            client.sendRaw(bytes);
            if (thenEndOutput) {
                client.endOutput();
            }
            return client.readOrClosed();
        }
    }
}
