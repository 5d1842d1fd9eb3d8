package io.memogate.proxy.it;

import static io.memogate.proxy.it.FaultsIT.assertQueryWorks;
import static io.memogate.proxy.it.FaultsIT.assertReady;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.Ticket;
import io.memogate.broker.gateway.Tier;
import io.memogate.estimator.Catalog;
import io.memogate.estimator.PreparedStatementTexts;
import io.memogate.estimator.postgres.PlannerSettings;
import io.memogate.proxy.admission.AdmissionControl;
import io.memogate.proxy.admission.DegradePolicy;
import io.memogate.proxy.admission.Degraded;
import io.memogate.proxy.admission.QueuedStatement;
import io.memogate.proxy.it.RawPgClient.Message;
import io.memogate.proxy.metrics.DegradeMeters;
import io.memogate.proxy.metrics.Names;
import io.memogate.proxy.postgres.PostgresServer;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import io.memogate.proxy.testing.Await;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A statement that can never fit the compile-memory target runs under tighter planner settings, for itself
 * only, when admission.degrade names its session: against PostgreSQL 18, its result is the one it has under the
 * session's own settings, its planner memory (EXPLAIN MEMORY) is within the target, the client sees one NOTICE
 * more and nothing else, and the session's settings afterwards are its own, after an error too. Where the proxy
 * does not degrade (a text that names the settings, a role not listed) the statement runs as before, under the
 * session's settings. Transaction blocks and the extended protocol: {@link DegradeExtendedIT}. The star joins here plan in about 26 MB
 * under the wide settings (a 12-table star), the target is 8 MiB.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class DegradeIT {

    static final String DATABASE = "degrade_star";
    private static final int TABLES = 12;
    static final long TARGET = 8L << 20;
    static final String WIDE = "set join_collapse_limit = 20; set from_collapse_limit = 20; "
            + "set geqo_threshold = 20";
    private static final Pattern PLANNING_MEMORY = Pattern.compile("Memory: used=(\\d+)kB");

    private AdmissionControl control;

    @BeforeEach
    void schema(EmbeddedPostgres pg) throws SQLException {
        ensure(pg);
    }

    @AfterEach
    void stop() {
        if (control != null) {
            control.close();
        }
    }

    /** A star of {@value #TABLES} tables of five rows each, in a database of its own. */
    static synchronized void ensure(EmbeddedPostgres pg) throws SQLException {
        if (!pg.createDatabaseIfMissing(DATABASE, "memogate")) {
            return;
        }
        List<String> ddl = new ArrayList<>();
        ddl.add("create table d0 (a int, " + IntStream.range(1, TABLES).mapToObj(k -> "k" + k + " int")
                .collect(Collectors.joining(", ")) + ")");
        ddl.add("insert into d0 select g, " + IntStream.range(1, TABLES).mapToObj(k -> "g % " + (k + 1))
                .collect(Collectors.joining(", ")) + " from generate_series(1, 5) g");
        for (int i = 1; i < TABLES; i++) {
            ddl.add("create table d" + i + " (a int, v int)");
            ddl.add("insert into d" + i + " select g % " + (i + 2) + ", g * " + i + " from generate_series(1, 5) g");
        }
        ddl.add("grant select on all tables in schema public to public");
        ddl.add("analyze");
        pg.execute(DATABASE, ddl.toArray(String[]::new));
    }

    /** The star join: a result that depends on every table, whatever the join order. */
    static String star(String tag) {
        StringBuilder sql = new StringBuilder("select count(*), sum(d0.a");
        for (int i = 1; i < TABLES; i++) {
            sql.append(" + d").append(i).append(".v");
        }
        sql.append(") /* ").append(tag).append(" */ from d0");
        for (int i = 1; i < TABLES; i++) {
            sql.append(" join d").append(i).append(" on d0.k").append(i).append(" = d").append(i).append(".a");
        }
        return sql.toString();
    }

    private ProxyFixture proxy(EmbeddedPostgres pg, DegradePolicy policy) throws InterruptedException {
        return proxy(pg, policy, TARGET);
    }

    private ProxyFixture proxy(EmbeddedPostgres pg, DegradePolicy policy, long target) throws InterruptedException {
        control = AdmissionControl.builder(AdmissionControl.ONLY_SERVER, PostgresServer.KIND, GatewaySettings.defaults(2))
                .staticTargetBytes(target).degrade(() -> policy).build();
        return ProxyFixture.to(pg.host(), pg.port()).admission(control.hook()).admissionSupport(control.support())
                .start();
    }

    static DegradePolicy everyone() {
        return new DegradePolicy(true, Set.of(), Set.of());
    }

    /** The star's result and its planner memory straight from the server, under the wide settings. */
    static List<String> direct(EmbeddedPostgres pg, String sql) throws SQLException {
        try (Connection connection = pg.connect(DATABASE); Statement statement = connection.createStatement()) {
            statement.execute(WIDE);
            try (ResultSet rows = statement.executeQuery(sql)) {
                rows.next();
                return List.of(rows.getString(1), rows.getString(2));
            }
        }
    }

    private static long directPlanningKb(EmbeddedPostgres pg, String sql) throws SQLException {
        try (Connection connection = pg.connect(DATABASE); Statement statement = connection.createStatement()) {
            statement.execute(WIDE);
            StringBuilder plan = new StringBuilder();
            try (ResultSet rows = statement.executeQuery("explain (summary, memory) " + sql)) {
                while (rows.next()) {
                    plan.append(rows.getString(1)).append('\n');
                }
            }
            return planningKb(plan.toString());
        }
    }

    private static long planningKb(String plan) {
        Matcher used = PLANNING_MEMORY.matcher(plan);
        assertThat(used.find()).as("EXPLAIN MEMORY shows the planner's memory: %s", plan).isTrue();
        return Long.parseLong(used.group(1));
    }

    /** A client of the proxy, logged in, that has set the wide settings. */
    static RawPgClient wideClient(ProxyFixture proxy) throws Exception {
        RawPgClient client = new RawPgClient(proxy.port());
        assertReady(client.startup("memogate_trust", DATABASE));
        run(client, WIDE);
        return client;
    }

    static List<Message> run(RawPgClient client, String sql) throws Exception {
        client.query(sql);
        return client.readUntilReady();
    }

    static String shown(RawPgClient client, String setting) throws Exception {
        List<Message> answer = run(client, "show " + setting);
        assertThat(answer).extracting(Message::type).containsExactly('T', 'D', 'C', 'Z');
        return dataRowValues(answer.get(1)).get(0);
    }

    /** The text values of a DataRow. */
    static List<String> dataRowValues(Message row) {
        ByteBuffer body = ByteBuffer.wrap(row.body());
        int columns = body.getShort();
        List<String> values = new ArrayList<>();
        for (int i = 0; i < columns; i++) {
            int length = body.getInt();
            byte[] value = new byte[length];
            body.get(value);
            values.add(new String(value, StandardCharsets.UTF_8));
        }
        return values;
    }

    static void assertWideSettings(RawPgClient client) throws Exception {
        assertThat(List.of(shown(client, "join_collapse_limit"), shown(client, "from_collapse_limit"),
                shown(client, "geqo_threshold"), shown(client, "geqo")))
                .as("the session's own settings after the degraded statement").containsExactly("20", "20", "20", "on");
        assertThat(run(client, "select 1")).last().extracting(Message::body).isEqualTo(new byte[] {'I'});
    }

    @Test
    void aStatementThatCanNeverFitRunsDegradedWithItsResultAndOneNotice(EmbeddedPostgres pg) throws Exception {
        String sql = star("degraded");
        List<String> expected = direct(pg, sql);
        try (ProxyFixture proxy = proxy(pg, everyone()); RawPgClient client = wideClient(proxy)) {
            List<Message> answer = run(client, sql);
            assertThat(answer).extracting(Message::type).containsExactly('N', 'T', 'D', 'C', 'Z');
            assertThat(answer.get(0).fields().get('M')).startsWith("statement planned with join_collapse_limit = ");
            assertThat(answer.get(0).fields().get('D')).contains("compile-memory target 8192 kB");
            assertThat(dataRowValues(answer.get(2))).as("the same result as under the session's settings")
                    .isEqualTo(expected);
            assertThat(answer.get(4).body()).as("idle, as after any statement outside a block").containsExactly('I');
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            new DegradeMeters(AdmissionControl.ONLY_SERVER, control.degradeCounts()).bindTo(registry);
            assertThat(registry.get(Names.DEGRADED).tag(Names.REASON, "never_fits").functionCounters())
                    .as("memogate_degraded_total{reason=never_fits}, by tier")
                    .extracting(FunctionCounter::count).containsExactlyInAnyOrder(1.0, 0.0, 0.0, 0.0);
            assertThat(registry.get(Names.DEGRADED).functionCounters()).as("every tier and reason")
                    .hasSize(12).extracting(FunctionCounter::count).containsOnlyOnce(1.0);
            assertWideSettings(client);
        }
    }

    /** The estimate of {@code sql} under the wide settings, as the proxy's sessions have it. */
    static long wideEstimate(String sql) {
        PlannerSettings wide = PlannerSettings.DEFAULTS.with("join_collapse_limit", "20")
                .with("from_collapse_limit", "20").with("geqo_threshold", "20");
        try (AdmissionControl estimating = AdmissionControl.builder(AdmissionControl.ONLY_SERVER, PostgresServer.KIND,
                GatewaySettings.defaults(2)).build()) {
            return estimating.estimator().get().estimate(sql, wide, PreparedStatementTexts.NONE, Catalog.NONE)
                    .estimatedBytes();
        }
    }

    /**
     * Another statement's ticket holding LARGE (half the target and a byte: the whole of t2 with nobody in MEDIUM),
     * so that a statement over t2 queues for it, while MEDIUM keeps a free permit.
     */
    private Ticket holdLarge() {
        Ticket large = control.gateways().acquire(control.gateways().target() / 2 + 1, 0);
        assertThat(large.highestTier()).contains(Tier.LARGE);
        return large;
    }

    @Test
    void aStatementThatWaitsLongerThanAfterRunsDegradedInATierWithRoom(EmbeddedPostgres pg) throws Exception {
        String sql = star("waited");
        List<String> expected = direct(pg, sql);
        // The star fits the target (so it is not degraded for never fitting) but needs LARGE (over t2 = 0.6 of it).
        long target = wideEstimate(sql) * 6 / 5;
        DegradePolicy policy = new DegradePolicy(true, Set.of(), Set.of(), Optional.of(Duration.ofMillis(300)));
        try (ProxyFixture proxy = proxy(pg, policy, target); RawPgClient client = wideClient(proxy)) {
            Ticket large = holdLarge();
            List<Message> answer = run(client, sql);
            large.release();
            // On a loaded machine the wait notice (after admission.waitNotice, 1 s) may come before the degrading.
            List<Message> own = answer.stream().filter(m -> m.type() != 'N'
                    || !m.fields().get('M').startsWith("statement queued for")).toList();
            assertThat(own).extracting(Message::type).containsExactly('N', 'T', 'D', 'C', 'Z');
            assertThat(own.get(0).fields().get('M')).startsWith("statement planned with ")
                    .endsWith("instead of waiting longer than admission.degrade.after for the LARGE gateway");
            assertThat(dataRowValues(own.get(2))).as("the same result as under the session's settings")
                    .isEqualTo(expected);
            assertThat(control.degradeCounts().total()).isEqualTo(1);
            assertThat(control.degradeCounts().count("large")).as("degraded into a tier with room").isZero();
            assertThat(control.degradeCounts().count(Degraded.Reason.WAITED)).isEqualTo(1);
            assertThat(own.get(0).fields().get('D')).contains("; it had waited ");
            assertWideSettings(client);
        }
    }

    @Test
    void showQueueSaysWhenAWaitingStatementDegradesAndOneAdmittedBeforeRunsAsItIs(EmbeddedPostgres pg)
            throws Exception {
        String sql = star("queued");
        long target = wideEstimate(sql) * 6 / 5;
        DegradePolicy policy = new DegradePolicy(true, Set.of(), Set.of(), Optional.of(Duration.ofMinutes(5)));
        try (ProxyFixture proxy = proxy(pg, policy, target); RawPgClient client = wideClient(proxy)) {
            Ticket large = holdLarge();
            client.query(sql);
            Await.until("the star queued for LARGE", () -> !control.gateways().waiting().isEmpty());
            assertThat(control.gateways().waiting()).singleElement().satisfies(waiting -> {
                assertThat(waiting.tier()).isEqualTo(Tier.LARGE);
                assertThat(((QueuedStatement) waiting.tag()).degrade()).as("SHOW QUEUE's degrade column")
                        .isEqualTo("after 300.0 s");
            });
            large.release();
            List<Message> answer = client.readUntilReady();
            assertThat(answer).extracting(Message::type).endsWith('T', 'D', 'C', 'Z');
            assertThat(answer).noneMatch(m -> m.type() == 'N' && m.fields().get('M').startsWith("statement planned"));
            assertThat(control.degradeCounts().total()).isZero();
            assertWideSettings(client);
        }
    }

    @Test
    void theDegradedStatementPlansWithinTheTarget(EmbeddedPostgres pg) throws Exception {
        String sql = star("explained");
        long fullKb = directPlanningKb(pg, sql);
        assertThat(fullKb * 1024).as("under the session's settings the star needs more than the target").isGreaterThan(TARGET);
        try (ProxyFixture proxy = proxy(pg, everyone()); RawPgClient client = wideClient(proxy)) {
            List<Message> answer = run(client, "explain (summary, memory) " + sql);
            assertThat(answer.get(0).type()).as("degraded, with its notice").isEqualTo('N');
            String plan = answer.stream().filter(m -> m.type() == 'D').map(m -> dataRowValues(m).get(0))
                    .collect(Collectors.joining("\n"));
            assertThat(planningKb(plan) * 1024).as("planner memory of the degraded statement").isLessThanOrEqualTo(TARGET);
            assertWideSettings(client);
        }
    }

    @Test
    void aDegradedStatementThatFailsLeavesTheSessionAsItWas(EmbeddedPostgres pg) throws Exception {
        String failing = star("fails").replace("select count(*), sum(d0.a", "select count(*) / 0, sum(d0.a");
        try (ProxyFixture proxy = proxy(pg, everyone()); RawPgClient client = wideClient(proxy)) {
            List<Message> answer = run(client, failing);
            // The division fails while the statement runs, after its RowDescription.
            assertThat(answer).extracting(Message::type).containsExactly('N', 'T', 'E', 'Z');
            assertThat(answer.get(2).sqlState()).isEqualTo("22012");
            assertThat(answer.get(3).body()).containsExactly('I');
            assertWideSettings(client);
            assertQueryWorks(client);
        }
    }

    @Test
    void aCancelledDegradedStatementLeavesTheSessionAsItWas(EmbeddedPostgres pg) throws Exception {
        String sleepy = star("cancelled") + " where pg_sleep(2) is not null";
        try (ProxyFixture proxy = proxy(pg, everyone());
                Connection connection = proxy.connect(DATABASE, "memogate", "memogate", "preferQueryMode", "simple");
                Statement statement = connection.createStatement()) {
            statement.execute(WIDE);
            Thread canceller = Thread.ofVirtual().start(() -> {
                try {
                    FaultsIT.awaitActiveQuery(pg, "cancelled");
                    statement.cancel();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThatThrownBy(() -> statement.executeQuery(sleepy)).isInstanceOf(SQLException.class)
                    .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("57014");
            canceller.join();
            assertThat(control.degradeCounts().total()).as("it ran degraded").isEqualTo(1);
            try (ResultSet rows = statement.executeQuery("select current_setting('join_collapse_limit'), "
                    + "current_setting('from_collapse_limit'), current_setting('geqo_threshold'), "
                    + "pg_current_xact_id_if_assigned() is null and now() = statement_timestamp()")) {
                rows.next();
                assertThat(List.of(rows.getString(1), rows.getString(2), rows.getString(3), rows.getString(4)))
                        .as("the session's settings, and no block left open").containsExactly("20", "20", "20", "t");
            }
        }
    }

    @Test
    void whatTheClientPipelinesBehindItRunsUnderItsOwnSettings(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = proxy(pg, everyone()); RawPgClient client = wideClient(proxy)) {
            client.query(star("pipelined"));
            client.query("show join_collapse_limit");
            List<Message> first = client.readUntilReady();
            List<Message> second = client.readUntilReady();
            assertThat(first).extracting(Message::type).containsExactly('N', 'T', 'D', 'C', 'Z');
            assertThat(second).extracting(Message::type).containsExactly('T', 'D', 'C', 'Z');
            assertThat(dataRowValues(second.get(1))).containsExactly("20");
        }
    }

    /**
     * A table whose rows name a key of {@code kept} through a deferred foreign key: a write to it is checked at its
     * transaction's commit, which waits while another transaction holds that key's row for update.
     */
    private static void starCounts(EmbeddedPostgres pg) throws SQLException {
        pg.execute(DATABASE, "create table if not exists kept (id int primary key)",
                "insert into kept values (1) on conflict do nothing",
                "create table if not exists star_counts (kept int references kept deferrable initially deferred,"
                        + " n bigint, total bigint)",
                "grant select, insert on star_counts to public", "truncate star_counts");
    }

    /** The star's count and sum written into star_counts as a row naming {@code kept}. */
    private static String countInto(int kept, String tag) {
        return "insert into star_counts " + star(tag).replace("select count(*)", "select " + kept + ", count(*)");
    }

    private static List<String> starCountRows(EmbeddedPostgres pg) throws SQLException {
        try (Connection connection = pg.connect(DATABASE); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("select kept, n, total from star_counts order by kept")) {
            List<String> joined = new ArrayList<>();
            while (rows.next()) {
                joined.add(rows.getString(1) + ":" + rows.getString(2) + ":" + rows.getString(3));
            }
            return joined;
        }
    }

    @Test
    void aDegradedStatementIsReadyOnlyOnceTheProxysCommitIsDoneAndTheNextOneIsDegradedToo(EmbeddedPostgres pg)
            throws Exception {
        starCounts(pg);
        List<String> expected = direct(pg, star("behind"));
        try (ProxyFixture proxy = proxy(pg, everyone()); RawPgClient client = wideClient(proxy);
                Connection holder = pg.connect(DATABASE); Statement holding = holder.createStatement();
                Connection watcher = pg.connect(DATABASE); Statement watching = watcher.createStatement()) {
            holder.setAutoCommit(false);
            holding.executeQuery("select id from kept where id = 1 for update").close();
            client.query(countInto(1, "written"));
            Await.until("the proxy's commit after the degraded insert waits for the held row", () -> {
                try (ResultSet waiting = watching.executeQuery("select count(*) from pg_stat_activity"
                        + " where wait_event_type = 'Lock' and query = 'commit'")) {
                    waiting.next();
                    return waiting.getInt(1) == 1;
                }
            });
            assertThat(List.of(client.read().type(), client.read().type())).containsExactly('N', 'C');
            // The server sent the insert's own ReadyForQuery before it began the commit: held back, it must not come.
            assertThat(client.readWithin(Duration.ofMillis(500))).as("ready while the commit still waits").isEmpty();
            holder.commit();
            Message ready = client.read();
            assertThat(ready.type()).isEqualTo('Z');
            assertThat(ready.body()).containsExactly('I');
            assertThat(starCountRows(pg)).as("committed once the client is told it is ready")
                    .containsExactly("1:" + expected.get(0) + ":" + expected.get(1));

            List<Message> behind = run(client, star("behind"));
            assertThat(behind).extracting(Message::type).containsExactly('N', 'T', 'D', 'C', 'Z');
            assertThat(behind.get(0).fields().get('M')).startsWith("statement planned with join_collapse_limit = ");
            assertThat(dataRowValues(behind.get(2))).isEqualTo(expected);
            assertWideSettings(client);
        }
    }

    @Test
    void aDegradedWriteWhoseCommitFailsGetsTheCommitsError(EmbeddedPostgres pg) throws Exception {
        starCounts(pg);
        try (ProxyFixture proxy = proxy(pg, everyone()); RawPgClient client = wideClient(proxy)) {
            List<Message> answer = run(client, countInto(2, "violates"));
            assertThat(answer).extracting(Message::type).containsExactly('N', 'C', 'E', 'Z');
            assertThat(answer.get(0).fields().get('M')).startsWith("statement planned with join_collapse_limit = ");
            assertThat(answer.get(2).sqlState()).as("the deferred foreign key, checked at the commit")
                    .isEqualTo("23503");
            assertThat(answer.get(3).body()).containsExactly('I');
            assertThat(starCountRows(pg)).as("nothing written, as the error says").isEmpty();
            assertWideSettings(client);
            assertQueryWorks(client);
        }
        try (ProxyFixture proxy = proxy(pg, everyone());
                Connection connection = proxy.connect(DATABASE, "memogate", "memogate", "preferQueryMode", "simple");
                Statement statement = connection.createStatement()) {
            statement.execute(WIDE);
            assertThatThrownBy(() -> statement.executeUpdate(countInto(2, "violates_jdbc")))
                    .as("pgjdbc's simple protocol throws the commit's error").isInstanceOf(SQLException.class)
                    .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("23503");
            assertThat(statement.executeUpdate(countInto(1, "kept_jdbc"))).as("the next write, degraded too")
                    .isEqualTo(1);
            assertThat(statement.getWarnings().getMessage()).startsWith("statement planned with ");
        }
        assertThat(starCountRows(pg)).as("only the write whose key exists").singleElement().asString()
                .startsWith("1:");
    }

    @Test
    void aTextNamingTheSettingsIsNotDegraded(EmbeddedPostgres pg) throws Exception {
        String sql = star("names_them").replace("select count(*)",
                "select count(*) filter (where current_setting('join_collapse_limit') = '20')");
        try (ProxyFixture proxy = proxy(pg, everyone()); RawPgClient client = wideClient(proxy)) {
            List<Message> answer = run(client, sql);
            assertThat(answer).extracting(Message::type).containsExactly('T', 'D', 'C', 'Z');
            assertThat(dataRowValues(answer.get(1)).get(0)).as("planned under the session's own settings")
                    .isEqualTo(direct(pg, star("names_them")).get(0));
        }
        assertThat(control.degradeCounts().total()).isZero();
    }

    @Test
    void onlyTheRolesListedAreDegraded(EmbeddedPostgres pg) throws Exception {
        DegradePolicy others = new DegradePolicy(true, Set.of("someone_else"), Set.of("reports"));
        try (ProxyFixture proxy = proxy(pg, others); RawPgClient client = wideClient(proxy)) {
            assertThat(run(client, star("not_listed"))).extracting(Message::type).containsExactly('T', 'D', 'C', 'Z');
        }
        try (ProxyFixture proxy = proxy(pg, new DegradePolicy(true, Set.of("memogate"), Set.of()));
                Connection connection = proxy.connect(DATABASE, "memogate", "memogate", "preferQueryMode", "simple");
                Statement statement = connection.createStatement()) {
            statement.execute(WIDE);
            try (ResultSet rows = statement.executeQuery(star("listed"))) {
                rows.next();
                SQLWarning notice = statement.getWarnings();
                assertThat((Object) notice).as("the NOTICE, through pgjdbc's simple protocol").isNotNull();
                assertThat(notice.getMessage()).startsWith("statement planned with ");
            }
            try (ResultSet rows = statement.executeQuery("show join_collapse_limit")) {
                rows.next();
                assertThat(rows.getString(1)).isEqualTo("20");
            }
        }
    }
}
