package io.memogate.proxy.mysql.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.proxy.admission.ImmediateAdmission;
import io.memogate.proxy.mysql.it.RawMySqlClient.Packet;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Broken and random packets through the MySQL wing: each gets a clean ERR, from the server or from the proxy
 * (08S01, then the connection ends), never a hang; random commands the server refuses leave the session in step.
 */
@ExtendWith(MariaDbExtension.class)
class MySqlBrokenPacketsIT {

    private static final int LIMIT = 1024 * 1024;
    private MySqlProxy proxy;

    @BeforeEach
    void start(PrivateMariaDb db) throws Exception {
        proxy = MySqlProxy.to(db, new ImmediateAdmission(), LIMIT);
    }

    @AfterEach
    void stop() {
        proxy.close();
    }

    private RawMySqlClient loggedIn() throws Exception {
        RawMySqlClient client = new RawMySqlClient(proxy.port());
        assertThat(client.login(PrivateMariaDb.USER, PrivateMariaDb.PASSWORD).first()).isZero();
        return client;
    }

    private static void assertEndsWithErr(RawMySqlClient client, int code, String sqlState) throws Exception {
        Packet err = client.read();
        assertThat(err.payload()).as("an ERR before the end").isNotNull();
        assertThat(err.isErr()).isTrue();
        assertThat(err.errorCode()).as(err.message()).isEqualTo(code);
        assertThat(err.sqlState()).isEqualTo(sqlState);
        assertThat(client.closedByPeer()).isTrue();
    }

    @Test
    void anEmptyCommandGetsAnErrAndTheEnd() throws Exception {
        try (RawMySqlClient client = loggedIn()) {
            client.write(0, new byte[0]);
            assertEndsWithErr(client, 1158, "08S01");
        }
        proxy.awaitSessionCount(0);
    }

    @Test
    void anExecuteWithoutAStatementIdGetsAnErrAndTheEnd() throws Exception {
        try (RawMySqlClient client = loggedIn()) {
            client.command(0x17, new byte[] {1, 2});
            assertEndsWithErr(client, 1158, "08S01");
        }
    }

    @Test
    void aPacketOverTheLimitGetsTheServersErrorForItAndTheEnd() throws Exception {
        try (RawMySqlClient client = loggedIn()) {
            client.query("SELECT '" + "x".repeat(LIMIT) + "'");
            Packet err = client.read();
            assertThat(err.errorCode()).isEqualTo(1153);
            assertThat(err.message()).contains("limits.maxMessageBytes");
        }
    }

    @Test
    void aLoginOfRandomBytesEndsWithAnErr() throws Exception {
        Random random = new Random(29);
        for (int round = 0; round < 10; round++) {
            try (RawMySqlClient client = new RawMySqlClient(proxy.port())) {
                client.read(); // the greeting
                byte[] junk = new byte[1 + random.nextInt(80)];
                random.nextBytes(junk);
                client.write(1, junk);
                Packet answer = client.read();
                if (answer.payload() != null) {
                    assertThat(answer.isErr()).as("round %d: an ERR, from the proxy or the server", round).isTrue();
                }
                assertThat(client.closedByPeer()).isTrue();
            }
        }
        proxy.awaitSessionCount(0);
    }

    /** A listener without TLS does not offer it in the greeting; a client that asks for it anyway is told so in an ERR. */
    @Test
    void anSslRequestToAListenerWithoutTlsGetsAnErr() throws Exception {
        try (RawMySqlClient client = new RawMySqlClient(proxy.port())) {
            client.read(); // the greeting
            byte[] sslRequest = new byte[32];
            sslRequest[1] = (byte) ((1 << 9 | 1 << 11) >> 8); // CLIENT_PROTOCOL_41 | CLIENT_SSL
            client.write(1, sslRequest);
            Packet err = client.read();
            assertThat(err.errorCode()).isEqualTo(1045);
            assertThat(err.sequenceId()).isEqualTo(2);
            assertThat(err.message()).contains("offers no TLS on this listener");
            assertThat(client.closedByPeer()).isTrue();
        }
    }

    @Test
    void aPacketCutShortEndsWhenTheClientDoes() throws Exception {
        try (RawMySqlClient client = loggedIn()) {
            client.writeRaw(new byte[] {100, 0, 0, 0, 3, 'S'});
            client.shutdownOutput();
            assertThat(client.closedByPeer()).isTrue();
        }
        proxy.awaitSessionCount(0);
    }

    /** Commands with random bodies, each refused by the server with one ERR; the session stays in step. */
    @Test
    void randomCommandsAreEachAnsweredAndTheSessionGoesOn() throws Exception {
        int[] commands = {0x02, 0x03, 0x04, 0x16, 0x17, 0x1A, 0x1C, 0x20, 0x42, 0xF0};
        Random random = new Random(3306);
        try (RawMySqlClient client = loggedIn()) {
            for (int round = 0; round < 200; round++) {
                int command = commands[random.nextInt(commands.length)];
                byte[] body = new byte[5 + random.nextInt(60)];
                random.nextBytes(body);
                if (command == 0x03 || command == 0x16) {
                    body[0] = '#'; // a comment the server reads to its end, then finds no statement: one ERR
                }
                if (command == 0x17 || command == 0x1C || command == 0x1A) {
                    body[0] = (byte) 0xEE; // a statement id never prepared
                }
                client.command(command, body);
                Packet answer = client.read();
                assertThat(answer.payload()).as("round %d: command 0x%02x answered", round, command).isNotNull();
                assertThat(answer.first()).as("round %d: one ERR or OK", round).isIn(0x00, 0xFF);
            }
            client.query("SELECT 6 * 7");
            assertThat(client.read().payload()).containsExactly(1); // one column
            client.read();                                          // its definition
            client.read();                                          // EOF
            Packet row = client.read();
            assertThat(new String(row.payload(), 1, row.payload()[0])).isEqualTo("42");
        }
    }
}
