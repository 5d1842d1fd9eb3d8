package io.memogate.proxy.it;

import static io.memogate.proxy.it.ConsoleClient.failure;
import static io.memogate.proxy.it.ConsoleClient.read;
import static io.memogate.proxy.it.ConsoleClient.rows;
import static io.memogate.proxy.it.ConsoleClient.run;
import static io.memogate.proxy.it.ConsoleClient.values;
import static io.memogate.proxy.it.RawPgClient.body;
import static io.memogate.proxy.it.RawPgClient.cstring;
import static io.memogate.proxy.it.RawPgClient.int16;
import static io.memogate.proxy.it.RawPgClient.int32;
import static io.memogate.proxy.it.StarSchema.star;
import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.proxy.MemogateVersion;
import io.memogate.proxy.cli.RunningProxy;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import io.memogate.proxy.postgres.embedded.TestUsers;
import io.memogate.proxy.it.RawPgClient.Message;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.postgresql.PGStatement;
import org.postgresql.util.PSQLException;

/**
 * The admin console in the extended query protocol, which drivers use by default (pgjdbc, pgx): what a
 * Java tool pointed at the console with no special setting sees, and the protocol's messages on the wire,
 * errors included, each answered as PostgreSQL answers them.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class ConsoleExtendedProtocolIT {

    private static final String ADMIN = TestUsers.SCRAM_USER;
    private static final String PASSWORD = TestUsers.SCRAM_PASSWORD;

    private RunningProxy proxy;

    @BeforeEach
    void start(EmbeddedPostgres pg) throws Exception {
        StarSchema.ensure(pg);
        MemogateConfig config = AdminConsoleIT.config(pg);
        proxy = RunningProxy.start(config.withAdmin(config.admin().withUsers(ADMIN, TestUsers.TRUST_USER)));
    }

    @AfterEach
    void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    /** pgjdbc as it comes: preferQueryMode=extended, server-side prepared statements after five uses. */
    private Connection extended() throws SQLException {
        return ConsoleClient.connect(proxy.server().port(), ADMIN, PASSWORD, "preferQueryMode", "extended");
    }

    private Connection simple() throws SQLException {
        return ConsoleClient.connect(proxy.server().port(), ADMIN, PASSWORD);
    }

    @Test
    void pgjdbcInItsDefaultModeReadsWhatSimpleQueriesRead() throws Exception {
        try (Connection extended = extended(); Connection simple = simple()) {
            assertThat(rows(extended, "SHOW TIERS")).isEqualTo(rows(simple, "SHOW TIERS")).hasSize(3);
            assertThat(rows(extended, "SHOW CONFIG")).isEqualTo(rows(simple, "SHOW CONFIG"));
            assertThat(rows(extended, "EXPLAIN ADMISSION " + star(12, "extended")).getFirst().get("gateways"))
                    .startsWith("small");

            try (PreparedStatement version = extended.prepareStatement("SHOW VERSION")) {
                assertThat(version.unwrap(PGStatement.class).getPrepareThreshold()).isEqualTo(5);
                for (int use = 1; use <= 8; use++) { // from the fifth use on, a named statement, bound again and again
                    try (ResultSet result = version.executeQuery()) {
                        assertThat(read(result)).as("use " + use)
                                .containsExactly(Map.of("version", MemogateVersion.text()));
                    }
                }
            }

            try (Statement limited = extended.createStatement()) {
                limited.setMaxRows(2);
                try (ResultSet tiers = limited.executeQuery("SHOW TIERS")) {
                    assertThat(read(tiers)).extracting(row -> row.get("tier")).containsExactly("small", "medium");
                }
            }
        }
    }

    @Test
    void aCommandRunsOnceAndChangesWhatTheConsoleShows() throws Exception {
        try (Connection extended = extended(); Connection simple = simple()) {
            assertThat(run(extended, "PAUSE")).as("described, then executed once").singleElement()
                    .satisfies(notice -> assertThat(notice).startsWith("paused: "));
            assertThat(values(simple, "SHOW STATS")).containsEntry("paused", "true");
            assertThat(run(extended, "RESUME")).singleElement()
                    .satisfies(notice -> assertThat(notice).startsWith("resumed: 0 waiting statements"));
            assertThat(values(simple, "SHOW STATS")).containsEntry("paused", "false");

            run(extended, "SET tiers.small.limit = 3");
            assertThat(ConsoleClient.row(rows(simple, "SHOW TIERS"), "tier", "small")).containsEntry("limit", "3");
        }
    }

    @Test
    void mistakesAreErrorsAndTheConsoleGoesOn() throws Exception {
        try (Connection extended = extended()) {
            PSQLException misspelt = failure(extended, "SHOW TIERZ");
            assertThat(misspelt.getSQLState()).isEqualTo("42601");
            assertThat(misspelt.getMessage()).contains("SHOW TIERS");

            assertThat(rows(extended, "SHOW TIERS")).hasSize(3);

            try (PreparedStatement withParameter = extended.prepareStatement("SHOW TIERS WHERE tier = ?")) {
                withParameter.setString(1, "small");
                assertThat(catchSql(withParameter).getSQLState()).as("console commands take no parameters")
                        .isEqualTo("42601");
            }
            assertThat(rows(extended, "SHOW QUEUE")).isEmpty();
        }
    }

    @Test
    void theMessagesOnTheWire() throws Exception {
        try (RawPgClient client = new RawPgClient(proxy.server().port())) {
            assertThat(client.startup(TestUsers.TRUST_USER, "memogate")).last().extracting(Message::type).isEqualTo('Z');

            client.send('P', body(cstring(""), cstring("SHOW TIERS"), int16(0)));  // unnamed statement, no types
            client.send('B', body(cstring(""), cstring(""), int16(0), int16(0), int16(1), int16(1))); // all binary
            client.send('D', body(new byte[] {'P'}, cstring("")));                 // describe the portal
            client.send('E', body(cstring(""), int32(2)));                         // two rows at most
            client.send('E', body(cstring(""), int32(0)));                         // the rest
            client.send('S', new byte[0]);
            List<Message> batch = client.readUntilReady();
            assertThat(batch).extracting(Message::type)
                    .containsExactly('1', '2', 'T', 'D', 'D', 's', 'D', 'C', 'Z');
            assertThat(lastShort(batch.get(2).body())).as("the last column's format: binary, as bound").isEqualTo(1);
            assertThat(batch.get(3).text()).contains("small");
            assertThat(batch.get(7).text()).isEqualTo("SHOW\0");

            client.send('D', body(new byte[] {'P'}, cstring("")));                 // the portal ended with the Sync
            client.send('S', new byte[0]);
            List<Message> gone = client.readUntilReady();
            assertThat(gone).extracting(Message::type).containsExactly('E', 'Z');
            assertThat(gone.getFirst().sqlState()).isEqualTo("34000");

            client.send('P', body(cstring("s1"), cstring("SHOW QUEUE"), int16(0)));
            client.send('D', body(new byte[] {'S'}, cstring("s1")));
            client.send('P', body(cstring("s2"), cstring("RESUME"), int16(0)));
            client.send('D', body(new byte[] {'S'}, cstring("s2")));
            client.send('C', body(new byte[] {'S'}, cstring("s2")));
            client.send('S', new byte[0]);
            assertThat(client.readUntilReady()).extracting(Message::type)
                    .containsExactly('1', 't', 'T', '1', 't', 'n', '3', 'Z');

            client.send('B', body(cstring(""), cstring("s1"), int16(0), int16(1), int32(1), new byte[] {'1'},
                    int16(0)));                                                    // one parameter: refused
            client.send('E', body(cstring(""), int32(0)));                         // skipped: the batch failed
            client.send('S', new byte[0]);
            List<Message> refused = client.readUntilReady();
            assertThat(refused).extracting(Message::type).containsExactly('E', 'Z');
            assertThat(refused.getFirst().sqlState()).isEqualTo("08P01");
            assertThat(refused.getFirst().fields().get('M'))
                    .isEqualTo("bind message supplies 1 parameters, but prepared statement \"s1\" requires 0");

            client.send('B', body(cstring("p"), cstring("s1"), int16(0), int16(0), int16(0)));
            client.send('E', body(cstring("p"), int32(0)));
            client.send('H', new byte[0]);                                         // Flush: answers without a Sync
            assertThat(List.of(client.read(), client.read())).extracting(Message::type)
                    .containsExactly('2', 'C');                                    // an empty queue: no rows
            client.send('S', new byte[0]);
            assertThat(client.readUntilReady()).extracting(Message::type).containsExactly('Z');

            client.send('F', body(int32(764), int16(0), int16(0), int16(0)));      // FunctionCall: lo_import, nothing
            List<Message> function = client.readUntilReady();
            assertThat(function).extracting(Message::type).containsExactly('E', 'Z');
            assertThat(function.getFirst().sqlState()).isEqualTo("0A000");

            client.send('d', new byte[] {1, 2, 3});                                // COPY messages outside COPY:
            client.send('c', new byte[0]);                                         // ignored, as PostgreSQL does
            client.send('Q', body(cstring("SHOW HELP"), cstring("junk")));        // bytes after the text: an
            List<Message> junk = client.readUntilReady();                          // ERROR, as from PostgreSQL
            assertThat(junk).extracting(Message::type).containsExactly('E', 'Z');
            assertThat(junk.getFirst().sqlState()).isEqualTo("08P01");
            assertThat(junk.getFirst().fields().get('M')).isEqualTo("invalid message format");
            client.send('S', new byte[] {7});                                      // a Sync with a body: likewise
            List<Message> syncWithBody = client.readUntilReady();
            assertThat(syncWithBody).extracting(Message::type).containsExactly('E', 'Z');
            assertThat(syncWithBody.getFirst().fields().get('M')).isEqualTo("invalid message format");
            client.query("SHOW TIERS");
            assertThat(client.readUntilReady()).extracting(Message::type).containsExactly('T', 'D', 'D', 'D', 'C', 'Z');

            client.send('D', body(new byte[] {'S'}, cstring("never parsed")));    // an error: skip to Sync ...
            client.send('z', new byte[0]);                                         // ... but not past an unknown type
            Message unknownStatement = client.read();
            assertThat(unknownStatement.sqlState()).isEqualTo("26000");
            Message violation = client.read();
            assertThat(violation.fields()).containsEntry('S', "FATAL").containsEntry('C', "08P01");
            assertThat(client.closedByPeer()).isTrue();
        }
    }

    /**
     * Random batches of extended-protocol messages, right and wrong (a seeded Random, so a failure repeats):
     * each Sync is answered with exactly one ReadyForQuery, each step before the first error with the
     * messages of its kind, and nothing after an error but the ReadyForQuery; the session never ends.
     */
    @Test
    void randomBatchesAreEachAnsweredStepByStep() throws Exception {
        Random random = new Random(20261122);
        List<String> names = List.of("", "a", "b");
        List<String> commands = List.of("SHOW TIERS", "SHOW QUEUE", "SHOW VERSION", "show stats;", ";",
                "SET application_name = 'x'", "SHOW TIERZ");
        try (RawPgClient client = new RawPgClient(proxy.server().port())) {
            assertThat(client.startup(TestUsers.TRUST_USER, "memogate")).last().extracting(Message::type).isEqualTo('Z');
            for (int batch = 0; batch < 300; batch++) {
                List<Character> steps = new ArrayList<>();
                int count = 1 + random.nextInt(6);
                for (int i = 0; i < count; i++) {
                    char step = "PBDECH".charAt(random.nextInt(6));
                    steps.add(step);
                    String name = names.get(random.nextInt(names.size()));
                    switch (step) {
                        case 'P' -> client.send('P', body(cstring(name),
                                cstring(commands.get(random.nextInt(commands.size()))), int16(0)));
                        case 'B' -> client.send('B', random.nextInt(10) == 0 // one value: refused
                                ? body(cstring(""), cstring(name), int16(0), int16(1), int32(1), new byte[] {'1'},
                                        int16(0))
                                : body(cstring(random.nextBoolean() ? "" : "p"), cstring(name), int16(0), int16(0),
                                        int16(1), int16(random.nextInt(2))));
                        case 'D' -> client.send('D', body(new byte[] {random.nextBoolean() ? (byte) 'S' : (byte) 'P'},
                                cstring(random.nextBoolean() ? name : "p")));
                        case 'E' -> client.send('E', body(cstring(random.nextBoolean() ? "" : "p"),
                                int32(random.nextInt(3))));
                        case 'C' -> client.send('C', body(new byte[] {random.nextBoolean() ? (byte) 'S' : (byte) 'P'},
                                cstring(name)));
                        default -> client.send('H', new byte[0]);
                    }
                }
                client.send('S', new byte[0]);
                assertAnsweredStepByStep("batch " + batch + " " + steps, steps, client.readUntilReady());
            }
            client.query("SHOW TIERS");
            assertThat(client.readUntilReady()).extracting(Message::type).containsExactly('T', 'D', 'D', 'D', 'C', 'Z');
        }
    }

    /** The answer of each step in order, as its kind allows, up to an error; then only the ReadyForQuery. */
    private static void assertAnsweredStepByStep(String batch, List<Character> steps, List<Message> answer) {
        List<String> answers = new ArrayList<>(); // per step, a regular expression of its messages' types
        for (char kind : steps) {
            switch (kind) {
                case 'P' -> answers.add("1");
                case 'B' -> answers.add("2");
                case 'C' -> answers.add("3");
                case 'D' -> answers.add("t?[Tn]");      // of a statement with 't', of a portal without
                case 'E' -> answers.add("N*D*[sCI]");   // notices, rows, then suspended, complete or empty
                default -> { }                          // Flush answers nothing itself
            }
        }
        // all the steps' answers, or those of the steps before one that failed, its error; then 'Z'
        List<String> accepted = new ArrayList<>(List.of(String.join("", answers) + "Z"));
        for (int failed = 0; failed < answers.size(); failed++) {
            accepted.add(String.join("", answers.subList(0, failed)) + "EZ");
        }
        String types = answer.stream().map(message -> String.valueOf(message.type())).collect(Collectors.joining());
        assertThat(types).as(batch).matches(String.join("|", accepted));
        assertThat(answer).as(batch)
                .noneMatch(message -> message.type() == 'E' && "FATAL".equals(message.fields().get('S')));
    }

    private static int lastShort(byte[] body) {
        return ((body[body.length - 2] & 0xff) << 8) | (body[body.length - 1] & 0xff);
    }

    private static PSQLException catchSql(PreparedStatement statement) {
        try {
            statement.executeQuery().close();
        } catch (PSQLException e) {
            return e;
        } catch (SQLException e) {
            throw new AssertionError("expected a server error, got " + e, e);
        }
        throw new AssertionError("the statement succeeded");
    }
}
