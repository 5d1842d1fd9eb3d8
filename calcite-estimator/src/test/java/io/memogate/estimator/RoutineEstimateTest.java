package io.memogate.estimator;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.RoutineDefinitions.Language;
import io.memogate.estimator.RoutineDefinitions.Routine;
import io.memogate.estimator.planner.IndexedColumns;
import io.memogate.estimator.postgres.PlannerSettings;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A statement that calls a PL/pgSQL or SQL routine needs what the routine's largest query needs, while it runs. */
class RoutineEstimateTest {

    private final CompileEstimator estimator = new CompileEstimator();

    private static Catalog catalog(Routine... routines) {
        return new Catalog(IndexedColumns.NONE, ViewDefinitions.NONE, FunctionDefinitions.NONE,
                RoutineDefinitions.of(List.of(routines)));
    }

    private CompileEstimate estimate(String sql, Catalog catalog) {
        return estimator.estimate(sql, PlannerSettings.DEFAULTS, PreparedStatementTexts.NONE, catalog);
    }

    private static Routine plpgsql(String name, String body) {
        return Routine.of("public", name, Language.PLPGSQL, body);
    }

    @Test
    void aCallOfAPlpgsqlFunctionIsItsLargestQuery() {
        String star = Shapes.star(8);
        Catalog catalog = catalog(plpgsql("report", "begin return query " + star + "; end"));
        CompileEstimate alone = estimate(star, Catalog.NONE);
        CompileEstimate call = estimate("select * from report()", catalog);
        assertThat(call.bypass()).isFalse();
        assertThat(call.estimatedBytes()).isEqualTo(alone.estimatedBytes());
        assertThat(call.plannedWhileRunning()).isTrue();
        assertThat(call.reason()).startsWith("public.report, which it calls, plans while running: ");
        assertThat(call.fingerprint()).as("the call's, not the routine's query").isEqualTo("select * from report ()");
        assertThat(estimate("select * from report()", Catalog.NONE).bypass()).as("unknown without the catalog").isTrue();
    }

    @Test
    void theStatementsOwnJoinWinsWhenItIsLarger() {
        Catalog catalog = catalog(plpgsql("small", "begin perform * from a join b using (k); end"));
        String sql = Shapes.clique(7).replace("SELECT *", "SELECT small()");
        CompileEstimate own = estimate(sql, Catalog.NONE);
        CompileEstimate both = estimate(sql, catalog);
        assertThat(both.estimatedBytes()).isEqualTo(own.estimatedBytes());
        assertThat(both.plannedWhileRunning()).as("its own planning ends before it runs").isFalse();
    }

    @Test
    void proceduresSqlBodiesAndQualifiedCalls() {
        Routine procedure = Routine.of("etl", "load", Language.SQL,
                "insert into log values (1); insert into f select * from " + Shapes.from(6)
                        + " where t0.c1 = t1.c0 and t0.c2 = t2.c0 and t0.c3 = t3.c0 and t0.c4 = t4.c0 and t0.c5 = t5.c0");
        Catalog catalog = catalog(procedure);
        assertThat(procedure.queries()).hasSize(2);
        assertThat(estimate("CALL etl.load()", catalog).largestProblem()).isEqualTo(6);
        assertThat(estimate("call load()", catalog).largestProblem()).isEqualTo(6);
        assertThat(estimate("call other.load()", catalog).bypass()).as("another schema's load").isTrue();
        assertThat(estimate("select load", catalog).bypass()).as("a column, not a call").isTrue();
        assertThat(estimate("create function g() returns void language sql as 'select load()'", catalog).bypass())
                .as("DDL runs nothing").isTrue();
        assertThat(estimate("explain select load()", catalog).bypass()).as("EXPLAIN plans, does not run").isTrue();
    }

    @Test
    void callsAreFollowedThroughRoutinesAndRecursionEnds() {
        Catalog catalog = catalog(
                plpgsql("outer_fn", "begin perform inner_fn(1); perform outer_fn(); end"),
                plpgsql("inner_fn", "begin return (select count(*) from " + Shapes.from(5)
                        + " where t0.c1 = t1.c0 and t1.c2 = t2.c1 and t2.c3 = t3.c2 and t3.c4 = t4.c3); end"),
                plpgsql("self", "begin perform self(); end"));
        assertThat(estimate("select outer_fn()", catalog).largestProblem()).isEqualTo(5);
        assertThat(estimate("select self()", catalog).bypass()).isTrue();
    }

    @Test
    void aDoBlockCallingAFunctionCountsItsQueries() {
        Catalog catalog = catalog(plpgsql("report", "begin return query " + Shapes.star(6) + "; end"));
        CompileEstimate block = estimate("do $$ begin perform report(); end $$", catalog);
        assertThat(block.largestProblem()).isEqualTo(6);
        assertThat(block.plannedWhileRunning()).isTrue();
    }

    /** A SET in a body (or a constant set_config) changes how the queries after it are planned. */
    @Test
    void aSetInTheBodyWidensTheQueriesAfterIt() {
        String star = Shapes.star(14);
        PlannerSettings wide = PlannerSettings.DEFAULTS.with("join_collapse_limit", "20")
                .with("from_collapse_limit", "20").with("geqo_threshold", "20");
        CompileEstimate wideStar = estimator.estimate(star, wide, PreparedStatementTexts.NONE, Catalog.NONE);
        CompileEstimate plain = estimate("select * from report()",
                catalog(plpgsql("report", "begin return query " + star + "; end")));
        assertThat(plain.memoPairs()).as("GEQO at the defaults").isLessThan(wideStar.memoPairs());

        CompileEstimate set = estimate("select * from report()", catalog(plpgsql("report", "begin"
                + " set local from_collapse_limit = 20; set geqo_threshold to 20;"
                + " perform set_config('join_collapse_limit', '20', true); return query " + star + "; end")));
        assertThat(set.memoPairs()).isEqualTo(wideStar.memoPairs());
        assertThat(set.largestProblem()).isEqualTo(14);
        CompileEstimate doBlock = estimate("do $$ begin set from_collapse_limit = 20; set geqo_threshold = 20;"
                + " perform count(*) from (" + star + ") s; end $$", Catalog.NONE);
        assertThat(doBlock.memoPairs()).isEqualTo(wideStar.memoPairs());
    }

    /** A SET that narrows planning may sit in a branch not taken: the queries after it count as without it too. */
    @Test
    void aSetThatNarrowsPlanningLowersNothing() {
        StringBuilder joins = new StringBuilder("select * from t0");
        for (int i = 1; i < 8; i++) {
            joins.append(" join t").append(i).append(" on t0.c").append(i).append(" = t").append(i).append(".c0");
        }
        String star = joins.toString();
        PlannerSettings narrow = PlannerSettings.DEFAULTS.with("join_collapse_limit", "1");
        assertThat(estimator.estimate(star, narrow, PreparedStatementTexts.NONE, Catalog.NONE).memoPairs())
                .as("in the written order").isLessThan(estimate(star, Catalog.NONE).memoPairs());
        CompileEstimate plain = estimate("select * from report()",
                catalog(plpgsql("report", "begin return query " + star + "; end")));
        CompileEstimate narrowed = estimate("select * from report()", catalog(plpgsql("report",
                "begin if false then set join_collapse_limit = 1; end if;"
                        + " return query " + star + "; end")));
        assertThat(narrowed.memoPairs()).isEqualTo(plain.memoPairs());
    }

    @Test
    void aCatalogReadAgainWithTheSameRoutinesIsTheSame() {
        Catalog first = catalog(plpgsql("f", "begin perform 1; end"));
        assertThat(first.sameContent(catalog(plpgsql("f", "begin perform 1; end")))).isTrue();
        assertThat(first.sameContent(catalog(plpgsql("f", "begin perform 2; end")))).isFalse();
    }
}
