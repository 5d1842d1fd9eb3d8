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
import io.memogate.estimator.planner.PlannerSettings;
import io.memogate.proxy.catalog.TriggerCatalog;
import io.memogate.proxy.embedded.EmbeddedPostgres;
import io.memogate.proxy.embedded.EmbeddedPostgresExtension;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A row trigger on a partitioned table is cloned to each partition: {@code pg_trigger} holds one row per
 * partition, each running the same function. Its body is read once, however many partitions there are, so
 * a table of a few hundred partitions does not crowd the database's other triggers out of the catalog read.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class TriggerCatalogIT {

    private static final String DATABASE = "partitioned_triggers";
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

    @Test
    void aTriggerClonedToEveryPartitionHasItsFunctionReadOnce(EmbeddedPostgres pg) throws SQLException {
        TriggerDefinitions triggers;
        try (Connection connection = pg.connect(DATABASE)) {
            triggers = TriggerCatalog.read(connection);
        }
        Catalog catalog = new Catalog(IndexedColumns.NONE, ViewDefinitions.NONE, FunctionDefinitions.NONE,
                RoutineDefinitions.NONE, triggers);
        assertThat(triggers.size()).as("the parent's, its clones, the ledger's").isEqualTo(PARTITIONS + 2);
        for (String insert : List.of("insert into events values (1, 0)",
                "insert into events_" + (PARTITIONS - 1) + " values (1, " + (PARTITIONS - 1) + ")",
                "insert into ledger values (1)")) {
            CompileEstimate estimate = new CompileEstimator().estimate(insert, PlannerSettings.DEFAULTS,
                    PreparedStatementTexts.NONE, catalog);
            assertThat(estimate.plannedWhileRunning()).as(insert).isTrue();
            assertThat(estimate.largestProblem()).as(insert).isEqualTo(3);
        }
    }
}
