package io.memogate.proxy.it;

import static io.memogate.proxy.it.DegradeIT.DATABASE;
import static io.memogate.proxy.it.DegradeIT.TARGET;
import static io.memogate.proxy.it.DegradeIT.WIDE;
import static io.memogate.proxy.it.DegradeIT.assertWideSettings;
import static io.memogate.proxy.it.DegradeIT.dataRowValues;
import static io.memogate.proxy.it.DegradeIT.direct;
import static io.memogate.proxy.it.DegradeIT.everyone;
import static io.memogate.proxy.it.DegradeIT.run;
import static io.memogate.proxy.it.DegradeIT.shown;
import static io.memogate.proxy.it.DegradeIT.star;
import static io.memogate.proxy.it.DegradeIT.wideClient;
import static io.memogate.proxy.it.RawPgClient.body;
import static io.memogate.proxy.it.RawPgClient.cstring;
import static io.memogate.proxy.it.RawPgClient.int16;
import static io.memogate.proxy.it.RawPgClient.int32;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.Ticket;
import io.memogate.broker.gateway.Tier;
import io.memogate.broker.gateway.TierSettings;
import io.memogate.proxy.admission.AdmissionControl;
import io.memogate.proxy.admission.DegradePolicy;
import io.memogate.proxy.it.RawPgClient.Message;
import io.memogate.proxy.postgres.PostgresServer;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import io.memogate.proxy.testing.Await;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Degraded statements in the extended protocol (pgjdbc's prepared statements, a raw pipeline) and inside a
 * transaction block, against PostgreSQL 18: the client sees its own messages and one NOTICE, the result is the one
 * under the session's settings, and the settings afterwards are the session's, or the block's own (a SET LOCAL of
 * the client's), after an error, a cancel and a refusal too. The star and its target are {@link DegradeIT}'s.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class DegradeExtendedIT {

    private AdmissionControl control;

    @BeforeEach
    void schema(EmbeddedPostgres pg) throws SQLException {
        DegradeIT.ensure(pg);
    }

    @AfterEach
    void stop() {
        if (control != null) {
            control.close();
        }
    }

    private ProxyFixture proxy(EmbeddedPostgres pg, DegradePolicy policy, GatewaySettings gateways, long target)
            throws InterruptedException {
        control = AdmissionControl.builder(AdmissionControl.ONLY_SERVER, PostgresServer.KIND, gateways)
                .staticTargetBytes(target).degrade(() -> policy).build();
        return ProxyFixture.to(pg.host(), pg.port()).admission(control.hook()).admissionSupport(control.support())
                .start();
    }

    private ProxyFixture proxy(EmbeddedPostgres pg) throws InterruptedException {
        return proxy(pg, everyone(), GatewaySettings.defaults(2), TARGET);
    }

    /** A pgjdbc connection (extended protocol) that has set the wide settings. */
    private static Connection wideJdbc(ProxyFixture proxy, String... properties) throws SQLException {
        Connection connection = proxy.connect(DATABASE, "memogate", "memogate", properties);
        try (Statement statement = connection.createStatement()) {
            statement.execute(WIDE);
        }
        return connection;
    }

    private static List<String> firstRow(PreparedStatement statement) throws SQLException {
        try (ResultSet rows = statement.executeQuery()) {
            rows.next();
            return List.of(rows.getString(1), rows.getString(2));
        }
    }

    private static String setting(Connection connection, String name) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("show " + name)) {
            rows.next();
            return rows.getString(1);
        }
    }

    private static void assertDegradedNotice(SQLWarning warning) {
        assertThat((Object) warning).as("the NOTICE of a degraded statement").isNotNull();
        assertThat(warning.getMessage()).startsWith("statement planned with ");
        assertThat((Object) warning.getNextWarning()).as("one notice, no more").isNull();
    }

    @Test
    void aPreparedStatementRunsDegradedWithItsResultAndOneNotice(EmbeddedPostgres pg) throws Exception {
        String sql = star("bound");
        List<String> expected = direct(pg, sql);
        try (ProxyFixture proxy = proxy(pg); Connection connection = wideJdbc(proxy);
                PreparedStatement statement = connection.prepareStatement(sql)) {
            assertThat(firstRow(statement)).isEqualTo(expected);
            assertDegradedNotice(statement.getWarnings());
            statement.clearWarnings();
            assertThat(firstRow(statement)).as("again, Parse and Bind once more").isEqualTo(expected);
            assertDegradedNotice(statement.getWarnings());
            assertThat(setting(connection, "join_collapse_limit")).isEqualTo("20");
            assertThat(setting(connection, "from_collapse_limit")).isEqualTo("20");
        }
        assertThat(control.degradeCounts().total()).isEqualTo(2);
    }

    @Test
    void aNamedPreparedStatementRunsDegradedAtEachBind(EmbeddedPostgres pg) throws Exception {
        String sql = star("named");
        List<String> expected = direct(pg, sql);
        // prepareThreshold=1: pgjdbc parses a named statement at once, then sends Bind, Execute, Sync alone.
        try (ProxyFixture proxy = proxy(pg); Connection connection = wideJdbc(proxy, "prepareThreshold", "1");
                PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int run = 0; run < 3; run++) {
                statement.clearWarnings();
                assertThat(firstRow(statement)).isEqualTo(expected);
                assertDegradedNotice(statement.getWarnings());
            }
            assertThat(setting(connection, "join_collapse_limit")).isEqualTo("20");
        }
        assertThat(control.degradeCounts().total()).isEqualTo(3);
    }

    private static void parse(RawPgClient client, String name, String sql) throws Exception {
        client.send('P', body(cstring(name), cstring(sql), int16(0)));
    }

    private static void bindDescribeExecute(RawPgClient client, String statement) throws Exception {
        client.send('B', body(cstring(""), cstring(statement), int16(0), int16(0), int16(0)));
        client.send('D', body(new byte[] {'P'}, cstring("")));
        client.send('E', body(cstring(""), int32(0)));
    }

    @Test
    void aPipelineSeesExactlyItsOwnAnswersAndOneNoticeAndWhatFollowsRunsUnderItsSettings(EmbeddedPostgres pg)
            throws Exception {
        String sql = star("pipelined");
        List<String> expected = direct(pg, sql);
        try (ProxyFixture proxy = proxy(pg); RawPgClient client = wideClient(proxy)) {
            // A named statement parsed ahead, as psql's \parse does, then both run in one pipeline.
            parse(client, "star", sql);
            parse(client, "", "show join_collapse_limit");
            bindDescribeExecute(client, "star");
            parse(client, "", "show join_collapse_limit");
            bindDescribeExecute(client, "");
            client.send('S', new byte[0]);
            List<Message> answer = client.readUntilReady();
            assertThat(answer).extracting(Message::type)
                    .containsExactly('1', '1', 'N', '2', 'T', 'D', 'C', '1', '2', 'T', 'D', 'C', 'Z');
            assertThat(answer.get(2).fields().get('M')).startsWith("statement planned with ");
            assertThat(dataRowValues(answer.get(5))).isEqualTo(expected);
            assertThat(dataRowValues(answer.get(10))).as("the next statement of the pipeline").containsExactly("20");
            assertThat(answer.get(12).body()).containsExactly('I');
            assertWideSettings(client);
        }
    }

    @Test
    void insideABlockTheBlocksOwnValuesComeBack(EmbeddedPostgres pg) throws Exception {
        String sql = star("in_block");
        List<String> expected = direct(pg, sql);
        try (ProxyFixture proxy = proxy(pg); RawPgClient client = wideClient(proxy)) {
            run(client, "begin");
            run(client, "set local join_collapse_limit = 19");
            List<Message> answer = run(client, sql);
            assertThat(answer).extracting(Message::type).containsExactly('N', 'T', 'D', 'C', 'Z');
            assertThat(dataRowValues(answer.get(2))).isEqualTo(expected);
            assertThat(answer.get(4).body()).as("still in the block").containsExactly('T');
            assertThat(shown(client, "join_collapse_limit")).as("the block's SET LOCAL").isEqualTo("19");
            assertThat(shown(client, "from_collapse_limit")).as("the session's").isEqualTo("20");
            assertThat(run(client, "commit")).last().extracting(Message::body).isEqualTo(new byte[] {'I'});
            assertWideSettings(client);
            List<Message> listed = run(client, "select count(*) from pg_settings where name like 'memogate.%'");
            assertThat(dataRowValues(listed.get(1))).as("the proxy's placeholders are not listed").containsExactly("0");
        }
        assertThat(control.degradeCounts().total()).isEqualTo(1);
    }

    @Test
    void anErrorInsideABlockAbortsItAsAloneAndTheRollbackGivesTheSettingsBack(EmbeddedPostgres pg) throws Exception {
        String failing = star("fails_in_block").replace("select count(*), sum(d0.a", "select count(*) / 0, sum(d0.a");
        try (ProxyFixture proxy = proxy(pg); RawPgClient client = wideClient(proxy)) {
            run(client, "begin");
            List<Message> answer = run(client, failing);
            assertThat(answer).extracting(Message::type).containsExactly('N', 'T', 'E', 'Z');
            assertThat(answer.get(2).sqlState()).isEqualTo("22012");
            assertThat(answer.get(3).body()).containsExactly('E');
            List<Message> next = run(client, "select 1");
            assertThat(next).extracting(Message::type).containsExactly('E', 'Z');
            assertThat(next.get(0).sqlState()).isEqualTo("25P02");
            assertThat(run(client, "rollback")).last().extracting(Message::body).isEqualTo(new byte[] {'I'});
            assertWideSettings(client);
        }
    }

    @Test
    void aPreparedStatementInAJdbcTransactionLeavesTheTransactionsValues(EmbeddedPostgres pg) throws Exception {
        String sql = star("jdbc_tx");
        List<String> expected = direct(pg, sql);
        String failing = star("jdbc_tx_fails").replace("select count(*), sum(d0.a", "select count(*) / 0, sum(d0.a");
        try (ProxyFixture proxy = proxy(pg); Connection connection = wideJdbc(proxy)) {
            connection.setAutoCommit(false);
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                assertThat(firstRow(statement)).isEqualTo(expected);
                assertDegradedNotice(statement.getWarnings());
            }
            assertThat(setting(connection, "join_collapse_limit")).as("within the transaction").isEqualTo("20");
            connection.commit();
            try (PreparedStatement statement = connection.prepareStatement(failing)) {
                assertThatThrownBy(() -> firstRow(statement)).isInstanceOf(SQLException.class)
                        .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("22012");
            }
            connection.rollback();
            assertThat(setting(connection, "join_collapse_limit")).isEqualTo("20");
            assertThat(setting(connection, "geqo_threshold")).isEqualTo("20");
        }
        assertThat(control.degradeCounts().total()).isEqualTo(2);
    }

    @Test
    void aCancelledPreparedStatementLeavesTheSessionAsItWas(EmbeddedPostgres pg) throws Exception {
        String sleepy = star("bound_cancelled") + " where pg_sleep(2) is not null";
        try (ProxyFixture proxy = proxy(pg); Connection connection = wideJdbc(proxy);
                PreparedStatement statement = connection.prepareStatement(sleepy)) {
            assertCancelled(statement, () -> FaultsIT.awaitActiveQuery(pg, "bound_cancelled"));
            assertThat(control.degradeCounts().total()).as("it ran degraded").isEqualTo(1);
            assertSessionsOwnSettingsAndNoOpenBlock(connection);
        }
    }

    @Test
    void aCancelledStatementInsideABlockFailsItAndTheRollbackGivesTheSettingsBack(EmbeddedPostgres pg)
            throws Exception {
        String sleepy = star("block_cancelled") + " where pg_sleep(2) is not null";
        try (ProxyFixture proxy = proxy(pg);
                Connection connection = wideJdbc(proxy, "preferQueryMode", "simple");
                PreparedStatement statement = connection.prepareStatement(sleepy)) {
            connection.setAutoCommit(false);
            assertThat(setting(connection, "join_collapse_limit")).as("the block is open").isEqualTo("20");
            assertCancelled(statement, () -> FaultsIT.awaitActiveQuery(pg, "block_cancelled"));
            assertThat(control.degradeCounts().total()).as("it ran degraded, in the block").isEqualTo(1);
            assertThatThrownBy(() -> setting(connection, "join_collapse_limit")).isInstanceOf(SQLException.class)
                    .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("25P02");
            connection.rollback();
            connection.setAutoCommit(true);
            assertSessionsOwnSettingsAndNoOpenBlock(connection);
        }
    }

    /** A wait on the state in which the statement is to be cancelled. */
    @FunctionalInterface
    private interface Awaited {
        void await() throws Exception;
    }

    /** Runs the statement, cancels it once {@code when} is over, and asserts that the client got 57014. */
    private static void assertCancelled(PreparedStatement statement, Awaited when) throws InterruptedException {
        Thread canceller = Thread.ofVirtual().start(() -> {
            try {
                when.await();
                statement.cancel();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertThatThrownBy(() -> firstRow(statement)).isInstanceOf(SQLException.class)
                .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("57014");
        canceller.join();
    }

    private static void assertSessionsOwnSettingsAndNoOpenBlock(Connection connection) throws SQLException {
        assertThat(List.of(setting(connection, "join_collapse_limit"), setting(connection, "from_collapse_limit"),
                setting(connection, "geqo_threshold"))).as("the session's settings").containsExactly("20", "20", "20");
        try (Statement check = connection.createStatement()) {
            check.execute("begin");
            assertThat((Object) check.getWarnings()).as("no block left open (BEGIN would warn)").isNull();
            check.execute("rollback");
        }
    }

    /** Every gated statement is refused at once while paused: SMALL may queue nobody, and t0 is 0. */
    private static GatewaySettings refusingWhenPaused() {
        GatewaySettings defaults = GatewaySettings.defaults(2).withStaticThreshold(0);
        return defaults.with(Tier.SMALL, defaults.small().withMaxQueue(0));
    }

    @Test
    void aRefusedStatementLeavesTheSettingsAloneInAndOutOfABlock(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = proxy(pg, everyone(), refusingWhenPaused(), TARGET);
                RawPgClient client = wideClient(proxy); Connection connection = wideJdbc(proxy)) {
            control.gateways().pause();
            run(client, "begin");
            List<Message> refused = run(client, star("refused_in_block"));
            assertThat(refused).extracting(Message::type).containsExactly('E', 'Z');
            assertThat(refused.get(0).sqlState()).isEqualTo("53000");
            assertThat(refused.get(1).body()).containsExactly('E');
            run(client, "rollback");
            try (PreparedStatement statement = connection.prepareStatement(star("refused_bound"))) {
                assertThatThrownBy(() -> firstRow(statement)).isInstanceOf(SQLException.class)
                        .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("53000");
            }
            control.gateways().resume();
            assertWideSettings(client);
            assertSessionsOwnSettingsAndNoOpenBlock(connection);
        }
        assertThat(control.degradeCounts().total()).as("counted as degraded: refused under its degraded estimate")
                .isEqualTo(2);
    }

    @Test
    void aStatementCancelledWhileItWaitsToDegradeIsWithdrawnAndNothingIsSet(EmbeddedPostgres pg) throws Exception {
        String sql = star("withdrawn");
        long target = DegradeIT.wideEstimate(sql) * 6 / 5;
        DegradePolicy policy = new DegradePolicy(true, Set.of(), Set.of(), Optional.of(Duration.ofMinutes(5)));
        try (ProxyFixture proxy = proxy(pg, policy, GatewaySettings.defaults(2), target);
                Connection connection = wideJdbc(proxy); PreparedStatement statement = connection.prepareStatement(sql)) {
            Ticket large = control.gateways().acquire(control.gateways().target() / 2 + 1, 0);
            assertCancelled(statement, () -> Await.until("the bound star queued",
                    () -> !control.gateways().waiting().isEmpty()));
            large.release();
            assertThat(control.gateways().waiting()).isEmpty();
            assertThat(control.degradeCounts().total()).isZero();
            assertSessionsOwnSettingsAndNoOpenBlock(connection);
        }
    }
}
