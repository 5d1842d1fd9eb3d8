package io.memogate.proxy.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.Catalog;
import io.memogate.estimator.CompileEstimate;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.FunctionDefinitions;
import io.memogate.estimator.PreparedStatementTexts;
import io.memogate.estimator.RoutineDefinitions;
import io.memogate.estimator.TriggerDefinitions;
import io.memogate.estimator.ViewDefinitions;
import io.memogate.estimator.planner.IndexedColumns;
import io.memogate.estimator.postgres.PlannerSettings;
import io.memogate.proxy.cli.RunningProxy;
import io.memogate.proxy.config.BrokerConfig;
import io.memogate.proxy.config.MonitorConfig;
import io.memogate.proxy.postgres.catalog.ServerCatalog;
import io.memogate.proxy.postgres.catalog.TriggerCatalog;
import io.memogate.proxy.postgres.embedded.DemoSchema;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import io.memogate.proxy.postgres.embedded.TestUsers;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What {@link TriggerCatalog} reads off a real server. A row trigger on a partitioned table is cloned to each
 * partition: {@code pg_trigger} holds one row per partition, each running the same function. Its body is read
 * once, however many partitions there are, so a table of a few hundred partitions does not crowd the database's
 * other triggers out of the catalog read, and counted once in SHOW CATALOGS, as the trigger a DBA created. A
 * {@code TRUNCATE ... CASCADE} reaches the TRUNCATE triggers of the tables whose foreign keys reference what it
 * names.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class TriggerCatalogIT {

    private static final String DATABASE = "partitioned_triggers";
    private static final String CASCADE = "truncate_cascade";
    private static final String THREE_PARTITIONS = "three_partitions";
    private static final int PARTITIONS = 200;
    /** The same 45 KB body read per partition would be 9 MB: over the 8 MiB kept of trigger functions. */
    private static final String PADDING = "/* " + "x".repeat(45_000) + " */";
    private static final String JOIN = "perform count(*) from a join b on a.id = b.id join c on b.id = c.id";

    @BeforeAll
    static void schema(EmbeddedPostgres pg) throws SQLException {
        if (!pg.createDatabaseIfMissing(DATABASE, "memogate")) {
            return;
        }
        List<String> ddl = new ArrayList<>();
        for (String t : List.of("a", "b", "c")) {
            ddl.add("create table " + t + " (id int primary key)");
        }
        ddl.add("create table events (id int, at int) partition by range (at)");
        for (int p = 0; p < PARTITIONS; p++) {
            ddl.add("create table events_" + p + " partition of events for values from (" + p + ") to (" + (p + 1)
                    + ")");
        }
        ddl.add("create function count_events() returns trigger language plpgsql as $$ begin " + PADDING + " "
                + JOIN + "; return new; end $$");
        ddl.add("create trigger counted after insert on events for each row execute function count_events()");
        // Longer, so read after the partitions' function: what a body counted once per partition pushes out.
        ddl.add("create table ledger (id int)");
        ddl.add("create function audit_ledger() returns trigger language plpgsql as $$ begin " + PADDING + PADDING
                + " " + JOIN + "; return new; end $$");
        ddl.add("create trigger audited after insert on ledger for each row execute function audit_ledger()");
        pg.execute(DATABASE, ddl.toArray(String[]::new));
    }

    /** A row trigger on a table of three partitions, cloned to each, and one partition's own trigger. */
    @BeforeAll
    static void threePartitions(EmbeddedPostgres pg) throws SQLException {
        if (!pg.createDatabaseIfMissing(THREE_PARTITIONS, "memogate")) {
            return;
        }
        List<String> ddl = new ArrayList<>();
        ddl.add("create table a (id int primary key)");
        ddl.add("create table b (id int primary key)");
        ddl.add("create table measurements (id int, at int) partition by range (at)");
        for (int p = 0; p < 3; p++) {
            ddl.add("create table measurements_" + p + " partition of measurements for values from (" + p + ") to ("
                    + (p + 1) + ")");
        }
        ddl.add("create function count_join() returns trigger language plpgsql as $$ begin"
                + " perform count(*) from a join b on a.id = b.id; return new; end $$");
        ddl.add("create trigger counted after insert on measurements for each row execute function count_join()");
        ddl.add("create trigger checked before update on measurements_0 for each row execute function count_join()");
        pg.execute(THREE_PARTITIONS, ddl.toArray(String[]::new));
    }

    /**
     * customers <- orders <- lines, notes: a TRUNCATE trigger on lines, an INSERT trigger on notes, each logging
     * a three-table join's count, so that the server shows which of them a statement fired.
     */
    @BeforeAll
    static void cascade(EmbeddedPostgres pg) throws SQLException {
        if (!pg.createDatabaseIfMissing(CASCADE, "memogate")) {
            return;
        }
        pg.execute(CASCADE, "create table a (id int primary key)", "create table b (id int primary key)",
                "create table c (id int primary key)", "create table fired (name text, n bigint)",
                "create table customers (id int primary key)",
                "create table orders (id int primary key, customer int references customers)",
                "create table lines (order_id int references orders)",
                "create table notes (order_id int references orders)",
                "create function log_join() returns trigger language plpgsql as $$ begin"
                        + " insert into fired select tg_name, count(*)"
                        + " from a join b on a.id = b.id join c on b.id = c.id; return null; end $$",
                "create trigger wiped after truncate on lines execute function log_join()",
                "create trigger noted after insert on notes for each row execute function log_join()");
    }

    @Test
    void aTriggerClonedToEveryPartitionHasItsFunctionReadOnce(EmbeddedPostgres pg) throws SQLException {
        TriggerDefinitions triggers;
        try (Connection connection = pg.connect(DATABASE)) {
            triggers = TriggerCatalog.read(connection);
        }
        Catalog catalog = new Catalog(IndexedColumns.NONE, ViewDefinitions.NONE, FunctionDefinitions.NONE,
                RoutineDefinitions.NONE, triggers);
        assertThat(triggers.size()).as("the parent's and the ledger's; the clones are not counted").isEqualTo(2);
        for (String insert : List.of("insert into events values (1, 0)",
                "insert into events_" + (PARTITIONS - 1) + " values (1, " + (PARTITIONS - 1) + ")",
                "insert into ledger values (1)")) {
            CompileEstimate estimate = new CompileEstimator().estimate(insert, PlannerSettings.DEFAULTS,
                    PreparedStatementTexts.NONE, catalog);
            assertThat(estimate.plannedWhileRunning()).as(insert).isTrue();
            assertThat(estimate.largestProblem()).as(insert).isEqualTo(3);
        }
    }

    /**
     * SHOW CATALOGS counts the triggers a DBA created, as pg_dump lists them: the partitioned table's and the
     * partition's own, not the three clones PostgreSQL made of the first; an insert into a partition still
     * fires its clone.
     */
    @Test
    void showCatalogsCountsAPartitionedTablesTriggerOnce(EmbeddedPostgres pg) throws Exception {
        try (RunningProxy proxy = RunningProxy.start(AdminConsoleIT.config(pg).withBroker(BrokerConfig.DEFAULTS
                .withMonitor(MonitorConfig.of(DemoSchema.MONITOR).withPassword(DemoSchema.MONITOR_PASSWORD))));
             Connection console = ConsoleClient.connect(proxy.server().port(), TestUsers.SCRAM_USER,
                     TestUsers.SCRAM_PASSWORD)) {
            assertThat(ConsoleClient.rows(console, "EXPLAIN ADMISSION DATABASE " + THREE_PARTITIONS
                    + " insert into measurements_2 values (1, 2)")).singleElement().satisfies(row -> assertThat(row)
                            .containsEntry("bypass", "false")
                            .containsEntry("catalog", THREE_PARTITIONS + ": 2 tables with indexes, 0 views,"
                                    + " 0 inlinable functions, 0 routines, 2 triggers"));
            assertThat(ConsoleClient.row(ConsoleClient.rows(console, "SHOW CATALOGS"), "database", THREE_PARTITIONS))
                    .containsEntry("triggers", "2");
        }
    }

    /**
     * {@code TRUNCATE customers CASCADE} truncates orders, lines and notes too, and fires lines' TRUNCATE
     * trigger, as the server shows; without CASCADE it fires nothing, and neither does a TRUNCATE of notes, whose
     * trigger is for INSERT.
     */
    @Test
    void aTruncateCascadeFiresTheTruncateTriggersOfTheTablesReferencingWhatItNames(EmbeddedPostgres pg)
            throws SQLException {
        Catalog catalog;
        List<String> fired = new ArrayList<>();
        try (Connection connection = pg.connect(CASCADE); Statement statement = connection.createStatement()) {
            catalog = ServerCatalog.read(connection);
            statement.execute("truncate fired");
            statement.execute("truncate customers cascade");
            try (ResultSet rows = statement.executeQuery("select name from fired")) {
                while (rows.next()) {
                    fired.add(rows.getString(1));
                }
            }
        }
        assertThat(fired).as("what the server fired").containsExactly("wiped");
        CompileEstimate cascade = estimate("truncate customers cascade", catalog);
        assertThat(cascade.plannedWhileRunning()).isTrue();
        assertThat(cascade.largestProblem()).isEqualTo(3);
        assertThat(cascade.reason()).startsWith("public.log_join, a trigger function it fires, plans while running");
        for (String other : List.of("truncate customers restrict", "truncate notes", "truncate notes cascade")) {
            assertThat(estimate(other, catalog).plannedWhileRunning()).as(other).isFalse();
        }
        assertThat(estimate("insert into notes values (null)", catalog).plannedWhileRunning()).isTrue();
    }

    private static CompileEstimate estimate(String sql, Catalog catalog) {
        return new CompileEstimator().estimate(sql, PlannerSettings.DEFAULTS, PreparedStatementTexts.NONE, catalog);
    }
}
