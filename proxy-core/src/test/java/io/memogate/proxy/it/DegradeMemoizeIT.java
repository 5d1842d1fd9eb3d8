package io.memogate.proxy.it;

import static io.memogate.proxy.it.DegradeIT.dataRowValues;
import static io.memogate.proxy.it.DegradeIT.run;
import static io.memogate.proxy.it.DegradeIT.shown;
import static io.memogate.proxy.it.FaultsIT.assertReady;
import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.estimator.Catalog;
import io.memogate.estimator.PreparedStatementTexts;
import io.memogate.estimator.postgres.PlannerSettings;
import io.memogate.proxy.admission.AdmissionControl;
import io.memogate.proxy.it.RawPgClient.Message;
import io.memogate.proxy.postgres.PostgresServer;
import io.memogate.proxy.postgres.catalog.IndexCatalogs;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A report over indexed tables planned for its first rows (a LIMIT) spends most of its planner memory on Memoize
 * paths; when it can never fit the compile-memory target, the proxy runs it with {@code enable_memoize = off}
 * and its whole join search, before it would lower the collapse limits. Against PostgreSQL 18 with the catalog
 * read: the result is the one under the session's settings, the planner memory (EXPLAIN MEMORY) is within the
 * target, and the session has Memoize on again afterwards, in the simple and the extended protocol. The star:
 * a fact indexed on nothing, ten dimensions with primary keys, under wide collapse limits.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class DegradeMemoizeIT {

    private static final String DATABASE = "degrade_memoize";
    private static final int DIMENSIONS = 10;
    private static final String WIDE = DegradeIT.WIDE;
    private static final String EXPLAIN = "explain (summary, memory, costs off) ";
    private static final Pattern PLANNING_MEMORY = Pattern.compile("Memory: used=(\\d+)kB");
    /**
     * Between the report's planner memory without Memoize and with it: on PostgreSQL 18.6 13 MB and 76 MB, estimated
     * with the catalog at 15 MB and 63 MB.
     */
    private static final long TARGET = 20L << 20;

    private AdmissionControl control;

    @BeforeEach
    void schema(EmbeddedPostgres pg) throws SQLException {
        if (!pg.createDatabaseIfMissing(DATABASE, "memogate")) {
            return;
        }
        List<String> ddl = new ArrayList<>();
        ddl.add("create table fact (id int, " + IntStream.rangeClosed(1, DIMENSIONS).mapToObj(d -> "k" + d + " int")
                .collect(Collectors.joining(", ")) + ")");
        ddl.add("insert into fact select g, " + IntStream.rangeClosed(1, DIMENSIONS).mapToObj(d -> "g % " + (10 * d))
                .collect(Collectors.joining(", ")) + " from generate_series(1, 2000) g");
        for (int d = 1; d <= DIMENSIONS; d++) {
            ddl.add("create table dim" + d + " (id int primary key, v int)");
            ddl.add("insert into dim" + d + " select g, g * " + d + " from generate_series(0, 200) g");
        }
        ddl.add("grant select on all tables in schema public to public");
        ddl.add("analyze");
        pg.execute(DATABASE, ddl.toArray(String[]::new));
    }

    @AfterEach
    void stop() {
        if (control != null) {
            control.close();
        }
    }

    /** The first rows of the star: all of the twenty facts it keeps, whatever the plan. */
    private static String report(String tag) {
        StringBuilder sql = new StringBuilder("select fact.id");
        for (int d = 1; d <= DIMENSIONS; d++) {
            sql.append(", dim").append(d).append(".v");
        }
        sql.append(" /* ").append(tag).append(" */ from fact");
        for (int d = 1; d <= DIMENSIONS; d++) {
            sql.append(" join dim").append(d).append(" on fact.k").append(d).append(" = dim").append(d).append(".id");
        }
        return sql.append(" where fact.id <= 20 limit 20").toString();
    }

    private ProxyFixture proxy(EmbeddedPostgres pg) throws Exception {
        IndexCatalogs catalogs = new IndexCatalogs(database -> Optional.of(pg.jdbcUrl(database)), pg.superuser(),
                pg.superuserPassword());
        control = AdmissionControl.builder(AdmissionControl.ONLY_SERVER, PostgresServer.KIND, GatewaySettings.defaults(2))
                .catalogs(catalogs).staticTargetBytes(TARGET).degrade(DegradeIT::everyone).build();
        control.catalogs().whenRead(DATABASE).get(60, TimeUnit.SECONDS);
        return ProxyFixture.to(pg.host(), pg.port()).admission(control.hook()).admissionSupport(control.support())
                .start();
    }

    /** Straight from the server under the wide settings and {@code memoize}: each row, its columns joined. */
    private static List<String> direct(EmbeddedPostgres pg, String sql, boolean memoize) throws SQLException {
        try (Connection connection = pg.connect(DATABASE); Statement statement = connection.createStatement()) {
            statement.execute(WIDE + "; set enable_memoize = " + (memoize ? "on" : "off"));
            try (ResultSet rows = statement.executeQuery(sql)) {
                return rowsOf(rows);
            }
        }
    }

    private static List<String> rowsOf(ResultSet rows) throws SQLException {
        List<String> joined = new ArrayList<>();
        while (rows.next()) {
            List<String> columns = new ArrayList<>();
            for (int column = 1; column <= rows.getMetaData().getColumnCount(); column++) {
                columns.add(rows.getString(column));
            }
            joined.add(String.join(":", columns));
        }
        return joined;
    }

    private static List<String> sorted(List<String> rows) {
        return rows.stream().sorted().toList();
    }

    private static long planningBytes(List<String> plan) {
        Matcher used = PLANNING_MEMORY.matcher(String.join("\n", plan));
        assertThat(used.find()).as("EXPLAIN MEMORY shows the planner's memory: %s", plan).isTrue();
        return Long.parseLong(used.group(1)) * 1024;
    }

    @Test
    void theReportPlansWithoutMemoizeWithinTheTargetAndItsResult(EmbeddedPostgres pg) throws Exception {
        String sql = report("simple");
        assertThat(planningBytes(direct(pg, EXPLAIN + sql, true))).as("with Memoize the report never fits the target")
                .isGreaterThan(TARGET);
        try (ProxyFixture proxy = proxy(pg); RawPgClient client = new RawPgClient(proxy.port())) {
            assertReady(client.startup("memogate_trust", DATABASE));
            run(client, WIDE);
            Catalog catalog = control.catalogs().of(DATABASE);
            PlannerSettings wide = PlannerSettings.DEFAULTS.with("join_collapse_limit", "20")
                    .with("from_collapse_limit", "20").with("geqo_threshold", "20");
            assertThat(control.estimator().get().estimate(sql, wide, PreparedStatementTexts.NONE, catalog)
                    .estimatedBytes()).as("estimated with the catalog's indexes").isGreaterThan(TARGET);

            List<Message> answer = run(client, EXPLAIN + sql);
            assertThat(answer.get(0).type()).isEqualTo('N');
            assertThat(answer.get(0).fields().get('M')).as("Memoize off alone, the collapse limits as they were")
                    .startsWith("statement planned with enable_memoize = off instead of");
            List<String> plan = answer.stream().filter(m -> m.type() == 'D').map(m -> dataRowValues(m).get(0))
                    .toList();
            assertThat(plan).as("no Memoize node").noneMatch(line -> line.contains("Memoize"));
            assertThat(planningBytes(plan)).as("planner memory of the degraded report").isLessThanOrEqualTo(TARGET);

            List<Message> rows = run(client, sql);
            assertThat(rows.get(0).fields().get('M')).startsWith("statement planned with enable_memoize = off instead of");
            assertThat(sorted(rows.stream().filter(m -> m.type() == 'D').map(m -> String.join(":", dataRowValues(m)))
                    .toList())).as("the rows the session's own settings give").isEqualTo(sorted(direct(pg, sql, true)));
            assertThat(List.of(shown(client, "enable_memoize"), shown(client, "join_collapse_limit")))
                    .as("the session's settings afterwards").containsExactly("on", "20");
        }
    }

    @Test
    void aPreparedReportInATransactionRunsWithoutMemoizeAndTheBlockKeepsIt(EmbeddedPostgres pg) throws Exception {
        String sql = report("prepared"); // the word in a comment is no PREPARE: it does not keep it from degrading
        try (ProxyFixture proxy = proxy(pg);
                Connection connection = proxy.connect(DATABASE, "memogate", "memogate", "prepareThreshold", "1")) {
            try (Statement statement = connection.createStatement()) {
                statement.execute(WIDE);
            }
            connection.setAutoCommit(false);
            List<String> rows;
            try (PreparedStatement report = connection.prepareStatement(sql); ResultSet result = report.executeQuery()) {
                rows = rowsOf(result);
                SQLWarning notice = report.getWarnings();
                assertThat((Object) notice).as("the NOTICE through pgjdbc's extended protocol").isNotNull();
                assertThat(notice.getMessage()).startsWith("statement planned with enable_memoize = off instead of");
            }
            assertThat(sorted(rows)).isEqualTo(sorted(direct(pg, sql, true)));
            try (Statement statement = connection.createStatement();
                    ResultSet setting = statement.executeQuery("select current_setting('enable_memoize')")) {
                setting.next();
                assertThat(setting.getString(1)).as("Memoize on again within the block").isEqualTo("on");
            }
            connection.commit();
        }
        assertThat(control.degradeCounts().total()).isEqualTo(1);
    }
}
