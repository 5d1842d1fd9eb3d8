package io.memogate.proxy.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.Catalog;
import io.memogate.estimator.CompileEstimate;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.FunctionDefinitions;
import io.memogate.estimator.PreparedStatementTexts;
import io.memogate.estimator.RoutineDefinitions;
import io.memogate.estimator.ViewDefinitions;
import io.memogate.estimator.planner.IndexedColumns;
import io.memogate.estimator.postgres.PlannerSettings;
import io.memogate.proxy.cli.RunningProxy;
import io.memogate.proxy.config.BrokerConfig;
import io.memogate.proxy.config.MonitorConfig;
import io.memogate.proxy.metrics.PrometheusText;
import io.memogate.proxy.postgres.catalog.FunctionCatalog;
import io.memogate.proxy.postgres.catalog.IndexCatalog;
import io.memogate.proxy.postgres.catalog.RoutineCatalog;
import io.memogate.proxy.postgres.catalog.ServerCatalog;
import io.memogate.proxy.postgres.catalog.ViewCatalog;
import io.memogate.proxy.postgres.embedded.DemoSchema;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import io.memogate.proxy.postgres.embedded.TestUsers;
import io.memogate.proxy.testing.Await;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.postgresql.util.PSQLException;

/**
 * With {@code broker.monitor}, admission reads each database's indexes and views: a star whose fact table is
 * indexed on its foreign keys is estimated as the catalog-aware estimator says, once the catalog has been
 * read, and the statements before that are estimated from their SQL and served all the same; a view over the
 * star is estimated as the star.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class IndexCatalogIT {

    private static final String DATABASE = "catalog";
    private static final String STAR = "select count(*) from f, d1, d2, d3, d4, d5 where f.k1 = d1.id and f.k2 = d2.id"
            + " and f.k3 = d3.id and f.k4 = d4.id and f.k5 = d5.id and d1.v < 50 limit 5";
    /** The star's join as a view, and as two security barriers (PostgreSQL stores the option as written). */
    private static final String STAR_JOIN = "select f.id, d1.v from f join d1 on f.k1 = d1.id join d2 on f.k2 = d2.id"
            + " join d3 on f.k3 = d3.id join d4 on f.k4 = d4.id join d5 on f.k5 = d5.id";

    private RunningProxy proxy;

    @BeforeAll
    static void star(EmbeddedPostgres pg) throws SQLException {
        if (!pg.createDatabaseIfMissing(DATABASE, "memogate")) {
            return;
        }
        List<String> ddl = new ArrayList<>();
        ddl.add("create table f (id int primary key, k1 int, k2 int, k3 int, k4 int, k5 int)");
        ddl.add("insert into f select g, g % 100, g % 90, g % 80, g % 70, g % 60 from generate_series(1, 5000) g");
        for (int d = 1; d <= 5; d++) {
            ddl.add("create table d" + d + " (id int primary key, v int)");
            ddl.add("insert into d" + d + " select g, g % 100 from generate_series(1, 100) g");
            ddl.add("create index on f (k" + d + ")");
        }
        ddl.add("create view star_view as " + STAR_JOIN);
        ddl.add("create view barrier with (security_barrier) as " + STAR_JOIN);
        ddl.add("create view barrier_on with (security_barrier = on) as " + STAR_JOIN);
        ddl.add("create materialized view star_mv as " + STAR_JOIN);
        // Inlined: stable, set-returning, one SELECT (as a string and as a SQL-standard body); not: volatile.
        ddl.add("create function star_since(int) returns table (id int, v int) language sql stable as $$"
                + STAR_JOIN + " where f.id > $1 $$");
        ddl.add("create function star_atomic(since int) returns table (id int, v int) language sql stable"
                + " begin atomic " + STAR_JOIN + " where f.id > since; end");
        ddl.add("create function star_volatile(int) returns table (id int, v int) language sql as $$"
                + STAR_JOIN + " where f.id > $1 $$");
        ddl.add("create function star_default(since int, upto int default 1000000) returns table (id int, v int)"
                + " language sql stable as $$" + STAR_JOIN + " where f.id between since and upto $$");
        // Planned while they run: a PL/pgSQL function and procedure over the star; a trigger function is not called.
        ddl.add("create function star_report() returns bigint language plpgsql stable as $$ begin"
                + " raise notice 'counting'; return (select count(*) from (" + STAR_JOIN + ") s); end $$");
        ddl.add("create procedure star_load() language plpgsql as $$ declare n int; begin"
                + " select count(*) into n from (" + STAR_JOIN + ") s; end $$");
        ddl.add("create function star_report_wide() returns bigint language plpgsql stable"
                + " set geqo_threshold = 20 set work_mem = '64MB' as $$ begin"
                + " return (select count(*) from (" + STAR_JOIN + ") s); end $$");
        ddl.add("create function star_audit() returns trigger language plpgsql as $$ begin"
                + " perform count(*) from (" + STAR_JOIN + ") s; return new; end $$");
        // Fired by inserts and updates of star_orders; the disabled trigger and the foreign key's internal ones not.
        ddl.add("create table star_orders (id int primary key, n int)");
        ddl.add("create table star_lines (order_id int references star_orders (id))");
        ddl.add("create trigger star_orders_audit after insert or update on star_orders for each row"
                + " execute function star_audit()");
        ddl.add("create trigger star_orders_off before delete on star_orders for each row"
                + " execute function star_audit()");
        ddl.add("alter table star_orders disable trigger star_orders_off");
        ddl.add("analyze");
        ddl.add("grant select on all tables in schema public to public");
        pg.execute(DATABASE, ddl.toArray(String[]::new));
    }

    @AfterEach
    void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    void admissionEstimatesCountTheIndexesOfTheStatementsDatabase(EmbeddedPostgres pg) throws Exception {
        long fromSql = new CompileEstimator().estimate(STAR, PlannerSettings.DEFAULTS).estimatedBytes();
        long withIndexes = withIndexes(pg);
        assertThat(withIndexes).as("the fact's five indexes").isGreaterThan(fromSql);

        proxy = RunningProxy.start(AdminConsoleIT.config(pg).withBroker(BrokerConfig.DEFAULTS
                .withMonitor(MonitorConfig.of(DemoSchema.MONITOR).withPassword(DemoSchema.MONITOR_PASSWORD))));
        URI metrics = proxy.metrics().metricsUrl().orElseThrow();
        try (Connection client = ConsoleClient.session(proxy.server().port(), DATABASE, TestUsers.SCRAM_USER,
                TestUsers.SCRAM_PASSWORD); Statement statement = client.createStatement()) {
            // The first statement starts the catalog's read; until it is in, statements are estimated from SQL.
            Await.until("the star estimated with the catalog's indexes", () -> {
                try (ResultSet rows = statement.executeQuery(STAR)) {
                    assertThat(rows.next()).isTrue();
                    return PrometheusText.scrape(metrics).value("memogate_estimate_bytes_max").orElse(0.0)
                            == withIndexes;
                }
            });
        }
        try (Connection console = ConsoleClient.connect(proxy.server().port(), TestUsers.SCRAM_USER,
                TestUsers.SCRAM_PASSWORD)) {
            // f, d1..d5 and star_orders, each with at least its primary key
            assertThat(ConsoleClient.rows(console, "SHOW CATALOGS")).singleElement().satisfies(row -> assertThat(row)
                    .containsEntry("database", DATABASE).containsEntry("state", "read")
                    .containsEntry("tables_with_indexes", "7").containsEntry("views", "4")
                    .containsEntry("inlinable_functions", "3").containsEntry("routines", "7")
                    .containsEntry("triggers", "1"));
        }
    }

    /**
     * EXPLAIN ADMISSION DATABASE estimates as that database's sessions are: it waits for the catalog's first
     * read (nothing else asked for it yet) and says which indexes it counted; without DATABASE, from the SQL;
     * a database the server does not have is an error naming it.
     */
    @Test
    void explainAdmissionWithADatabaseWaitsForItsIndexes(EmbeddedPostgres pg) throws Exception {
        long fromSql = new CompileEstimator().estimate(STAR, PlannerSettings.DEFAULTS).estimatedBytes();
        long withIndexes = withIndexes(pg);
        proxy = RunningProxy.start(AdminConsoleIT.config(pg).withBroker(BrokerConfig.DEFAULTS
                .withMonitor(MonitorConfig.of(DemoSchema.MONITOR).withPassword(DemoSchema.MONITOR_PASSWORD))));
        try (Connection console = ConsoleClient.connect(proxy.server().port(), TestUsers.SCRAM_USER,
                TestUsers.SCRAM_PASSWORD)) {
            assertThat(ConsoleClient.rows(console, "EXPLAIN ADMISSION DATABASE " + DATABASE + " " + STAR))
                    .singleElement().satisfies(row -> assertThat(row)
                            .containsEntry("estimated_bytes", Long.toString(withIndexes))
                            .containsEntry("catalog", DATABASE + ": 7 tables with indexes, 4 views,"
                                    + " 3 inlinable functions, 7 routines, 1 triggers"));
            // The view's text names one relation; its query, read from the catalog, joins six.
            assertThat(ConsoleClient.rows(console, "EXPLAIN ADMISSION DATABASE " + DATABASE
                    + " select count(*) from star_view")).singleElement().satisfies(row -> assertThat(row)
                            .containsEntry("bypass", "false")
                            .extractingByKey("reason").asString().contains("1 view(s) expanded")
                            .contains("largest problem 6 relations"));
            assertThat(ConsoleClient.rows(console, "EXPLAIN ADMISSION DATABASE " + DATABASE
                    + " select count(*) from star_since(100)")).singleElement().satisfies(row -> assertThat(row)
                            .extractingByKey("reason").asString().contains("1 SQL function call(s) inlined")
                            .contains("largest problem 6 relations"));
            assertThat(ConsoleClient.rows(console, "EXPLAIN ADMISSION " + STAR)).singleElement()
                    .satisfies(row -> assertThat(row).containsEntry("estimated_bytes", Long.toString(fromSql))
                            .extractingByKey("catalog").asString().startsWith("none: from the SQL"));
            // A database the server does not have: named in the error, and not kept as a failed catalog.
            PSQLException missing = ConsoleClient.failure(console, "EXPLAIN ADMISSION DATABASE no_such_db " + STAR);
            assertThat(missing.getSQLState()).isEqualTo("3D000");
            assertThat(missing.getServerErrorMessage().getMessage()).isEqualTo("database \"no_such_db\" does not exist");
            assertThat(missing.getServerErrorMessage().getDetail()).contains("the server that serves it")
                    .contains("database \"no_such_db\" does not exist");
            assertThat(ConsoleClient.rows(console, "SHOW CATALOGS")).extracting(row -> row.get("database"))
                    .containsExactly(DATABASE);
        }
    }

    /**
     * A view created after the catalog was read is one relation to the estimate until the next read;
     * REFRESH CATALOGS reads it now.
     */
    @Test
    void refreshCatalogsReadsANewViewAtOnce(EmbeddedPostgres pg) throws Exception {
        proxy = RunningProxy.start(AdminConsoleIT.config(pg).withBroker(BrokerConfig.DEFAULTS
                .withMonitor(MonitorConfig.of(DemoSchema.MONITOR).withPassword(DemoSchema.MONITOR_PASSWORD))));
        String explain = "EXPLAIN ADMISSION DATABASE " + DATABASE + " select count(*) from later_view";
        try (Connection console = ConsoleClient.connect(proxy.server().port(), TestUsers.SCRAM_USER,
                TestUsers.SCRAM_PASSWORD)) {
            assertThat(ConsoleClient.rows(console, explain)).singleElement()
                    .satisfies(row -> assertThat(row).containsEntry("bypass", "true"));
            pg.execute(DATABASE, "create view later_view as " + STAR_JOIN);
            assertThat(ConsoleClient.rows(console, explain)).as("until the next read").singleElement()
                    .satisfies(row -> assertThat(row).containsEntry("bypass", "true"));

            assertThat(ConsoleClient.rows(console, "REFRESH CATALOGS " + DATABASE)).singleElement()
                    .satisfies(row -> assertThat(row).containsEntry("database", DATABASE)
                            .containsEntry("state", "read").containsEntry("views", "5"));
            assertThat(ConsoleClient.rows(console, explain)).singleElement().satisfies(row -> assertThat(row)
                    .containsEntry("bypass", "false")
                    .extractingByKey("reason").asString().contains("1 view(s) expanded"));
            PSQLException missing = ConsoleClient.failure(console, "REFRESH CATALOGS no_such_db");
            assertThat(missing.getSQLState()).isEqualTo("3D000");
        } finally {
            pg.execute(DATABASE, "drop view if exists later_view");
        }
    }

    /**
     * The views' queries as the server prints them parse, the barriers are told from the plain view, and a
     * materialized view's query is what its refresh plans.
     */
    @Test
    void viewsAreReadWithTheirQueriesAndBarriers(EmbeddedPostgres pg) throws SQLException {
        ViewDefinitions views;
        try (Connection other = pg.connect(DATABASE); Statement statement = other.createStatement()) {
            // Another session's temporary view of the same name, longer: no one else's view.
            statement.execute("create temp view star_view as " + STAR_JOIN + " where f.id > 0 and d1.v > 0");
            views = read(pg, ViewCatalog::read);
        }
        assertThat(views.size()).isEqualTo(4);
        assertThat(views.view("star_view")).map(ViewDefinitions.View::schema).hasValue("public");
        assertThat(views.materializedView("star_mv")).isPresent();
        assertThat(views.view("star_mv")).as("a table in FROM").isEmpty();
        assertThat(views.view("star_view")).hasValueSatisfying(view -> assertThat(view.securityBarrier()).isFalse());
        assertThat(views.view("barrier")).hasValueSatisfying(view -> assertThat(view.securityBarrier()).isTrue());
        assertThat(views.view("barrier_on")).hasValueSatisfying(view -> assertThat(view.securityBarrier()).isTrue());

        Catalog catalog = new Catalog(IndexedColumns.NONE, views);
        CompileEstimate expanded = estimate("select count(*) from star_view", catalog);
        assertThat(expanded.parser()).isEqualTo(CompileEstimate.Parser.CALCITE);
        assertThat(expanded.largestProblem()).isEqualTo(6);
        assertThat(expanded.blocks()).isEqualTo(1);
        CompileEstimate barrier = estimate("select count(*) from barrier, d1 where barrier.v = d1.v", catalog);
        assertThat(barrier.blocks()).as("the barrier is planned apart").isEqualTo(2);
        assertThat(barrier.largestProblem()).isEqualTo(6);
        CompileEstimate refresh = estimate("refresh materialized view star_mv", catalog);
        assertThat(refresh.largestProblem()).as("the refresh plans the star").isEqualTo(6);
    }

    /** The functions PostgreSQL inlines are read with their bodies, SQL-standard ones too; volatile ones are not. */
    @Test
    void inlinableFunctionsAreReadWithTheirBodies(EmbeddedPostgres pg) throws SQLException {
        FunctionDefinitions functions = read(pg, FunctionCatalog::read);
        assertThat(functions.size()).isEqualTo(3);
        assertThat(functions.function("star_volatile", 1)).isEmpty();
        assertThat(functions.function("star_default", 1)).as("its default fills the second").isPresent();
        assertThat(functions.function("star_atomic", 1)).hasValueSatisfying(function ->
                assertThat(function.body()).doesNotContain("BEGIN ATOMIC").contains("JOIN d5"));

        Catalog catalog = new Catalog(IndexedColumns.NONE, ViewDefinitions.NONE, functions);
        for (String call : List.of("star_since(100)", "star_atomic(100)", "star_default(100)")) {
            CompileEstimate inlined = estimate("select count(*) from " + call, catalog);
            assertThat(inlined.largestProblem()).as(call).isEqualTo(6);
            assertThat(inlined.parser()).as(call).isEqualTo(CompileEstimate.Parser.CALCITE);
        }
    }

    /**
     * PL/pgSQL and SQL functions and procedures are read with the queries they run, trigger functions are not:
     * a call needs what the largest of them needs, planned while the statement runs.
     */
    @Test
    void routinesAreReadWithTheQueriesTheyRun(EmbeddedPostgres pg) throws SQLException {
        RoutineDefinitions routines = read(pg, RoutineCatalog::read);
        assertThat(routines.size()).as("the four SQL functions, star_report, star_report_wide, star_load")
                .isEqualTo(7);
        assertThat(routines.calledIn("select star_report_wide()")).singleElement().satisfies(routine -> assertThat(
                routine.settings()).containsExactly("geqo_threshold=20", "work_mem=64MB"));
        assertThat(routines.calledIn("select star_audit()")).as("a trigger function").isEmpty();
        // How many arguments a call may pass, from pronargs and pronargdefaults: another number is an overload.
        assertThat(routines.calledIn("select * from star_default(1)")).hasSize(1);
        assertThat(routines.calledIn("select * from star_default(1, 2)")).hasSize(1);
        assertThat(routines.calledIn("select * from star_default()")).as("one argument has no default").isEmpty();
        assertThat(routines.calledIn("select * from star_default(1, 2, 3)")).isEmpty();
        assertThat(routines.calledIn("call star_load(null)")).as("a procedure: any number").hasSize(1);
        Catalog catalog = new Catalog(IndexedColumns.NONE, ViewDefinitions.NONE, FunctionDefinitions.NONE, routines);
        for (String call : List.of("select star_report()", "call star_load()", "select star_atomic(1)",
                "select public.star_since(1)")) {
            CompileEstimate estimate = estimate(call, catalog);
            assertThat(estimate.largestProblem()).as(call).isEqualTo(6);
            assertThat(estimate.plannedWhileRunning()).as(call).isTrue();
        }
        assertThat(estimate("select star_report()", Catalog.NONE).bypass()).isTrue();
    }

    /**
     * Triggers that run a PL/pgSQL function are read with the events that fire them: a change that fires one
     * needs what the function's largest query needs, planned while it runs. A disabled trigger, and the
     * internal ones of a foreign key, are not read.
     */
    @Test
    void triggersAreReadWithTheEventsThatFireThem(EmbeddedPostgres pg) throws SQLException {
        Catalog catalog = read(pg, ServerCatalog::read);
        assertThat(catalog.triggers().size()).as("star_orders_audit only").isEqualTo(1);
        for (String change : List.of("insert into star_orders values (1, 1)", "update public.star_orders set n = 2",
                "copy star_orders from stdin")) {
            CompileEstimate estimate = estimate(change, catalog);
            assertThat(estimate.largestProblem()).as(change).isEqualTo(6);
            assertThat(estimate.plannedWhileRunning()).as(change).isTrue();
            assertThat(estimate.reason()).as(change).startsWith("public.star_audit, a trigger function it fires,");
        }
        for (String other : List.of("delete from star_orders", "insert into star_lines values (1)",
                "insert into star_orders values (1, 1)")) {
            assertThat(estimate(other, other.startsWith("insert into star_orders") ? Catalog.NONE : catalog)
                    .plannedWhileRunning()).as(other).isFalse();
        }
    }

    /**
     * The demo's {@code lab_star16} view hides docs/examples/star16.sql: through the view's definition, as
     * the server prints it, the estimate is the star's (docs/walkthrough.md); and so
     * does its function {@code lab_star16_count}, which counts over the view.
     */
    @Test
    void theDemosStarViewAndFunctionAreEstimatedAsTheStarTheyHide(EmbeddedPostgres pg) throws Exception {
        Catalog demo;
        try (Connection connection = pg.connect(DemoSchema.DATABASE)) {
            demo = ServerCatalog.read(connection);
        }
        PlannerSettings wide = PlannerSettings.DEFAULTS.with("join_collapse_limit", "20")
                .with("from_collapse_limit", "20").with("geqo_threshold", "20");
        CompileEstimate throughView = new CompileEstimator().estimate(example("star16-view.sql"), wide,
                PreparedStatementTexts.NONE, demo);
        CompileEstimate written = new CompileEstimator().estimate(example("star16.sql"), wide,
                PreparedStatementTexts.NONE, demo);
        assertThat(throughView.largestProblem()).isEqualTo(16);
        assertThat(throughView.memoPairs()).isEqualTo(written.memoPairs());
        // The same join problem; only the view's query tree, which the planner copies before pulling it up into
        // the statement, costs its copy's JOIN entries on top.
        assertThat(throughView.terms()).usingRecursiveComparison().ignoringFields("tokens", "copiedJoinRelations")
                .isEqualTo(written.terms());
        assertThat(throughView.terms().copiedJoinRelations()).isGreaterThan(written.terms().copiedJoinRelations());
        CompileEstimate throughFunction = new CompileEstimator().estimate(example("star16-function.sql"), wide,
                PreparedStatementTexts.NONE, demo);
        assertThat(throughFunction.memoPairs()).as("the function's query is the view's").isEqualTo(written.memoPairs());
        assertThat(throughFunction.plannedWhileRunning()).isTrue();
    }

    /** A file of docs/examples, from the module's directory (where Maven runs the tests). */
    private static String example(String name) throws IOException {
        return Files.readString(Path.of("..", "docs", "examples", name));
    }

    private static long withIndexes(EmbeddedPostgres pg) throws SQLException {
        return estimate(STAR, Catalog.of(read(pg, IndexCatalog::read))).estimatedBytes();
    }

    /** One of the catalog readers. */
    @FunctionalInterface
    private interface CatalogReader<T> {
        T read(Connection connection) throws SQLException;
    }

    private static <T> T read(EmbeddedPostgres pg, CatalogReader<T> reader) throws SQLException {
        try (Connection connection = pg.connect(DATABASE)) {
            return reader.read(connection);
        }
    }

    private static CompileEstimate estimate(String sql, Catalog catalog) {
        return new CompileEstimator().estimate(sql, PlannerSettings.DEFAULTS, PreparedStatementTexts.NONE, catalog);
    }
}
