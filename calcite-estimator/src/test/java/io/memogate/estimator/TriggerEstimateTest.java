package io.memogate.estimator;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.RoutineDefinitions.Language;
import io.memogate.estimator.RoutineDefinitions.Routine;
import io.memogate.estimator.TriggerDefinitions.ForeignKey;
import io.memogate.estimator.TriggerDefinitions.Trigger;
import io.memogate.estimator.lexer.ChangedTables.Change;
import io.memogate.estimator.planner.IndexedColumns;
import io.memogate.estimator.postgres.PlannerSettings;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A statement that changes a table with triggers needs what the largest query of their PL/pgSQL functions
 * needs, planned while it runs, as a statement calling those functions would.
 */
class TriggerEstimateTest {

    private static final Routine AUDIT = Routine.of("public", "audit_orders", Language.PLPGSQL,
            "begin insert into audit_log select count(*) from " + Shapes.star(8).substring("SELECT * FROM ".length())
                    + "; return new; end");

    private final CompileEstimator estimator = new CompileEstimator();

    private static Catalog catalog(Trigger... triggers) {
        return new Catalog(IndexedColumns.NONE, ViewDefinitions.NONE, FunctionDefinitions.NONE,
                RoutineDefinitions.NONE, TriggerDefinitions.of(List.of(triggers)));
    }

    private CompileEstimate estimate(String sql, Catalog catalog) {
        return estimator.estimate(sql, PlannerSettings.DEFAULTS, PreparedStatementTexts.NONE, catalog);
    }

    @Test
    void aChangeThatFiresATriggerIsItsFunctionsLargestQuery() {
        Catalog catalog = catalog(new Trigger("public", "orders", Set.of(Change.INSERT, Change.UPDATE), AUDIT));
        CompileEstimate star = estimate(Shapes.star(8), Catalog.NONE);
        for (String change : List.of("insert into orders values (1)", "update public.orders set n = 2",
                "insert into orders values (1) on conflict do nothing", "copy orders from stdin",
                "with x as (update orders set n = 1 returning *) select * from x")) {
            CompileEstimate estimate = estimate(change, catalog);
            assertThat(estimate.bypass()).as(change).isFalse();
            assertThat(estimate.largestProblem()).as(change).isEqualTo(8);
            assertThat(estimate.memoPairs()).as(change).isEqualTo(star.memoPairs());
            assertThat(estimate.plannedWhileRunning()).as(change).isTrue();
            assertThat(estimate.reason()).as(change)
                    .startsWith("public.audit_orders, a trigger function it fires, plans while running: ");
            assertThat(estimate.fingerprint()).as("the statement's, as the queue shows it").isEqualTo(
                    estimate(change, Catalog.NONE).fingerprint());
        }
        assertThat(estimate("insert into orders values (1)", Catalog.NONE).bypass()).as("without the catalog")
                .isTrue();
    }

    @Test
    void otherEventsTablesAndSchemasFireNothing() {
        Catalog catalog = catalog(new Trigger("public", "orders", Set.of(Change.INSERT), AUDIT));
        for (String other : List.of("delete from orders", "update orders set n = 1", "truncate orders",
                "insert into lines values (1)", "insert into archive.orders values (1)",
                "select * from orders for update", "copy orders to stdout", "explain insert into orders values (1)",
                "create trigger t after insert on orders execute function audit_orders()")) {
            assertThat(estimate(other, catalog).plannedWhileRunning()).as(other).isFalse();
        }
        assertThat(estimate("explain analyze insert into orders values (1)", catalog).plannedWhileRunning())
                .as("EXPLAIN ANALYZE runs it").isTrue();
    }

    /**
     * {@code TRUNCATE a CASCADE} truncates the tables whose foreign keys reference {@code a}, and theirs, firing
     * their TRUNCATE triggers; without CASCADE it truncates only what it names (or fails), and a cascade reaches
     * no INSERT trigger.
     */
    @Test
    void aTruncateCascadeFiresTheTruncateTriggersOfTheTablesReferencingItsTargets() {
        Routine wipe = Routine.of("public", "wipe_lines", Language.PLPGSQL, AUDIT.body());
        TriggerDefinitions triggers = TriggerDefinitions.of(List.of(
                new Trigger("public", "lines", Set.of(Change.TRUNCATE), wipe),
                new Trigger("public", "notes", Set.of(Change.INSERT), AUDIT)), List.of(
                new ForeignKey("public", "orders", "public", "customers"),
                new ForeignKey("public", "lines", "public", "orders"),
                new ForeignKey("public", "notes", "public", "orders"),
                new ForeignKey("public", "orders", "public", "lines"))); // a cycle ends too
        Catalog catalog = new Catalog(IndexedColumns.NONE, ViewDefinitions.NONE, FunctionDefinitions.NONE,
                RoutineDefinitions.NONE, triggers);
        for (String truncate : List.of("truncate customers cascade", "truncate table public.customers, x cascade",
                "truncate orders restart identity cascade")) {
            CompileEstimate estimate = estimate(truncate, catalog);
            assertThat(estimate.largestProblem()).as(truncate).isEqualTo(8);
            assertThat(estimate.reason()).as(truncate)
                    .startsWith("public.wipe_lines, a trigger function it fires, plans while running: ");
        }
        for (String other : List.of("truncate customers", "truncate customers restrict",
                "truncate archive.customers cascade", "truncate notes cascade", "delete from customers")) {
            assertThat(estimate(other, catalog).plannedWhileRunning()).as(other).isFalse();
        }
    }

    @Test
    void aQuotedMixedCaseTableIsAnotherTableThanItsLowerCaseName() {
        // "Orders" and orders are two tables to PostgreSQL: only changes of the one with the trigger fire it.
        Catalog catalog = catalog(new Trigger("public", "Orders", Set.of(Change.INSERT), AUDIT));
        assertThat(estimate("insert into \"Orders\" values (1)", catalog).plannedWhileRunning()).isTrue();
        for (String other : List.of("insert into orders values (1)", "insert into ORDERS values (1)",
                "insert into \"orders\" values (1)")) {
            assertThat(estimate(other, catalog).plannedWhileRunning()).as(other).isFalse();
        }
    }

    @Test
    void triggersOfChangesMadeByARoutineOrAnotherTriggerAreFollowedAndRecursionEnds() {
        Routine load = Routine.of("public", "load", Language.PLPGSQL, "begin insert into orders values (1); end");
        Routine cascade = Routine.of("public", "cascade", Language.PLPGSQL,
                "begin delete from orders where id = old.id; return old; end");
        Catalog catalog = new Catalog(IndexedColumns.NONE, ViewDefinitions.NONE, FunctionDefinitions.NONE,
                RoutineDefinitions.of(List.of(load)), TriggerDefinitions.of(List.of(
                        new Trigger("public", "orders", Set.of(Change.INSERT), AUDIT),
                        new Trigger("public", "orders", Set.of(Change.DELETE), cascade))));
        assertThat(estimate("call load()", catalog).largestProblem()).isEqualTo(8);
        assertThat(estimate("delete from orders", catalog).bypass()).as("a trigger that fires itself").isTrue();
    }

    @Test
    void aPartitionsCloneOfItsParentsTriggerFiresButIsNotCounted() {
        TriggerDefinitions triggers = TriggerDefinitions.of(List.of(
                new Trigger("public", "events", Set.of(Change.INSERT), AUDIT),
                new Trigger("public", "events_0", Set.of(Change.INSERT), AUDIT, true),
                new Trigger("public", "events_1", Set.of(Change.INSERT), AUDIT, true)));
        assertThat(triggers.size()).isEqualTo(1);
        Catalog catalog = new Catalog(IndexedColumns.NONE, ViewDefinitions.NONE, FunctionDefinitions.NONE,
                RoutineDefinitions.NONE, triggers);
        assertThat(estimate("insert into events_1 values (1)", catalog).plannedWhileRunning()).isTrue();
    }

    @Test
    void aCatalogReadAgainWithTheSameTriggersIsTheSame() {
        Catalog first = catalog(new Trigger("public", "orders", Set.of(Change.INSERT, Change.DELETE), AUDIT));
        assertThat(first.sameContent(catalog(new Trigger("public", "orders", Set.of(Change.DELETE, Change.INSERT),
                AUDIT)))).isTrue();
        assertThat(first.sameContent(catalog(new Trigger("public", "orders", Set.of(Change.INSERT), AUDIT))))
                .isFalse();
    }
}
