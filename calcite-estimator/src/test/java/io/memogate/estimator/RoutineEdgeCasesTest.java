package io.memogate.estimator;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.RoutineDefinitions.Language;
import io.memogate.estimator.RoutineDefinitions.Routine;
import io.memogate.estimator.planner.IndexedColumns;
import io.memogate.estimator.postgres.PlannerSettings;
import io.memogate.estimator.postgres.PlpgsqlStatements;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a review found the first routine and DO block reading missed, each a test that failed then. */
class RoutineEdgeCasesTest {

    private final CompileEstimator estimator = new CompileEstimator();
    private static final String STAR = Shapes.star(8);

    private static Catalog catalog(Routine... routines) {
        return new Catalog(IndexedColumns.NONE, ViewDefinitions.NONE, FunctionDefinitions.NONE,
                RoutineDefinitions.of(List.of(routines)));
    }

    private static Routine plpgsql(String name, String body) {
        return Routine.of("public", name, Language.PLPGSQL, body);
    }

    private CompileEstimate estimate(String sql, Catalog catalog) {
        return estimator.estimate(sql, PlannerSettings.DEFAULTS, PreparedStatementTexts.NONE, catalog);
    }

    // --- CALL and plain-expression calls inside PL/pgSQL bodies are dropped, so nested routines are not followed

    @Test
    void callInsideAPlpgsqlBodyIsAQuery() {
        assertThat(PlpgsqlStatements.of("begin call step1(); call step2(42); end")).isNotEmpty();
    }

    @Test
    void aDoBlockThatCallsAProcedureCountsItsQueries() {
        Catalog c = catalog(plpgsql("load_step", "begin insert into f " + STAR + "; end"));
        assertThat(estimate("do $$ begin call load_step(); end $$", c).largestProblem()).isEqualTo(8);
    }

    @Test
    void anOrchestratingProcedureCountsTheProceduresItCalls() {
        Catalog c = catalog(plpgsql("nightly", "begin call load_step(); commit; end"),
                plpgsql("load_step", "begin insert into f " + STAR + "; end"));
        assertThat(estimate("call nightly()", c).largestProblem()).isEqualTo(8);
    }

    @Test
    void callsInAssignmentsConditionsAndReturnsAreFollowed() {
        Catalog c = catalog(plpgsql("heavy", "begin return query " + STAR + "; end"),
                plpgsql("wrapper", "declare n int; begin n := heavy(); if heavy() then null; end if; return heavy(); end"));
        assertThat(estimate("select wrapper()", c).largestProblem()).isEqualTo(8);
    }

    @Test
    void refreshMaterializedViewInABodyIsAQuery() {
        assertThat(PlpgsqlStatements.of("begin refresh materialized view concurrently sales_mv; end")).isNotEmpty();
    }

    @Test
    void aMigrationDoBlockThatCreatesAViewPlansNothing() {
        CompileEstimate e = estimate("do $$ begin if not exists (select 1 from pg_views where viewname = 'v') then"
                + " create view v as " + STAR + "; end if; end $$", Catalog.NONE);
        assertThat(e.bypass()).as(e.reason()).isTrue();
    }

    // --- SQL-standard bodies: pg_get_function_sqlbody prints "RETURN (SELECT ...)"

    @Test
    void aSqlStandardReturnBodyIsPlannedAsASelect() {
        Routine f = Routine.of("public", "f_ret", Language.SQL, "RETURN (" + STAR.replace("SELECT *", "SELECT count(*)") + ")");
        assertThat(estimate("select f_ret()", catalog(f)).largestProblem()).isEqualTo(8);
    }

    // --- estimates made with a cycle cut or at the depth limit are cached under the plain key

    @Test
    void aMutualRecursionCutIsNotCachedForTheTopLevelCall() {
        Catalog c = catalog(plpgsql("refresh_all", "begin perform refresh_one(0); end"),
                plpgsql("refresh_one", "begin if n = 0 then perform refresh_all(); end if; " + STAR + "; end"));
        assertThat(estimate("select refresh_one(0)", c).largestProblem()).isEqualTo(8);
        assertThat(estimate("select refresh_all()", c).largestProblem()).isEqualTo(8);
    }

    @Test
    void aChainCutAtTheDepthLimitIsNotCachedForItsMiddle() {
        Routine[] chain = new Routine[11];
        for (int i = 0; i < 10; i++) {
            chain[i] = plpgsql("f" + i, "begin perform f" + (i + 1) + "(); end");
        }
        chain[10] = plpgsql("f10", "begin " + STAR + "; end");
        Catalog c = catalog(chain);
        estimate("select f0()", c); // cut at 8 deep: "SELECT f9()" inside f8 is cached as a bypass
        assertThat(estimate("select f8()", c).largestProblem()).as("f8 -> f9 -> f10: 3 deep").isEqualTo(8);
    }

    /** A routine that calls itself is complete at its own depth: remembered, so its callers do not read it again. */
    @Test
    void aSelfRecursiveRoutineIsRememberedAndItsCyclesPartnersAreNot() {
        Catalog c = catalog(plpgsql("walk", "begin if n > 0 then perform walk(n - 1); end if; " + STAR + "; end"),
                plpgsql("ping", "begin perform pong(); end"),
                plpgsql("pong", "begin perform ping(); " + Shapes.chain(5) + "; end"));
        assertThat(estimate("select walk(3)", c).largestProblem()).isEqualTo(8);
        assertThat(estimate("select 1 + walk(2)", c).largestProblem()).as("from the routine memo").isEqualTo(8);
        assertThat(estimate("select ping()", c).largestProblem()).isEqualTo(5);
        assertThat(estimate("select pong()", c).largestProblem()).as("pong's own estimate, not ping's cut one")
                .isEqualTo(5);
    }

    // --- false calls: a table, CTE or alias with a column list named like a routine

    @Test
    void aColumnListIsNotACall() {
        Catalog c = catalog(plpgsql("events", "begin return query " + STAR + "; end"));
        assertThat(estimate("insert into events (id, at) values (1, now())", c).plannedWhileRunning()).isFalse();
        assertThat(estimate("with events(n) as (select 1) select n from events", c).plannedWhileRunning()).isFalse();
        assertThat(estimate("select * from generate_series(1, 3) as events(n)", c).plannedWhileRunning()).isFalse();
        assertThat(estimate("with a as (select 1), events(n) as materialized (select 2) select 1", c)
                .plannedWhileRunning()).isFalse();
        assertThat(estimate("select id, events(id) as e from t", c).plannedWhileRunning())
                .as("a call aliased after a comma").isTrue();
        assertThat(estimate("select * from t, events() as e(a int)", c).plannedWhileRunning()).isTrue();
        assertThat(estimate("select * from (values (1)) events(n) join t on t.k = events.n", c)
                .plannedWhileRunning()).as("a sub-select's alias without AS").isFalse();
    }

    // --- which statements run their calls

    @Test
    void explainAnalyzeRunsTheCall() {
        Catalog c = catalog(plpgsql("report", "begin return query " + STAR + "; end"));
        assertThat(estimate("explain analyze select * from report()", c).largestProblem()).isEqualTo(8);
    }

    @Test
    void declareCursorDoesNotRunTheCallFetchDoes() {
        Catalog c = catalog(plpgsql("report", "begin return query " + STAR + "; end"));
        assertThat(estimate("declare cur cursor for select * from report()", c).plannedWhileRunning())
                .as("DECLARE only plans 'select * from report()'").isFalse();
    }

    // --- a routine's own SET clauses (pg_proc.proconfig) are in force while its queries are planned

    @Test
    void aRoutinesOwnSettingsPlanItsQueries() {
        String body = "begin return query " + Shapes.star(13) + "; end";
        Routine plain = Routine.of("public", "wide_report", Language.PLPGSQL, body);
        Routine wide = Routine.of("public", "wide_report", Language.PLPGSQL, body, List.of("geqo_threshold=20"));
        assertThat(estimate("select * from wide_report()", catalog(plain)).search())
                .as("13 relations, over the default geqo_threshold of 12").isEqualTo(CompileEstimate.Search.GEQO);
        CompileEstimate underItsOwn = estimate("select * from wide_report()", catalog(wide));
        assertThat(underItsOwn.search()).as("its SET geqo_threshold = 20").isEqualTo(CompileEstimate.Search.DP);
        assertThat(underItsOwn.largestProblem()).isEqualTo(13);
    }

    // --- overloads: a call counts only the routines of its name that take its number of arguments

    @Test
    void aCallCountsOnlyTheOverloadsTakingItsNumberOfArguments() {
        Routine heavy = plpgsql("report", "begin return query " + STAR + "; end").withArguments(0, 0);
        Routine light = plpgsql("report", "begin perform 1; end").withArguments(1, 2); // report(int, int default)
        Routine variadic = plpgsql("tally", "begin return query " + STAR + "; end")
                .withArguments(1, Routine.ANY_NUMBER);
        Catalog c = catalog(heavy, light, variadic);
        assertThat(RoutineDefinitions.of(List.of(heavy, light, variadic)).calledIn("select report()"))
                .containsExactly(heavy);
        assertThat(estimate("select report(1)", c).plannedWhileRunning()).as("the light overload only").isFalse();
        assertThat(estimate("select report(f(1, 2), array[3, 4])", c).plannedWhileRunning())
                .as("two arguments, whatever their commas inside").isFalse();
        assertThat(estimate("select report()", c).largestProblem()).isEqualTo(8);
        assertThat(estimate("select tally(1, 2, 3, 4)", c).largestProblem()).isEqualTo(8);
        assertThat(estimate("select tally()", c).plannedWhileRunning()).as("no overload takes none").isFalse();
        assertThat(estimate("select report(p => 1)", c).plannedWhileRunning()).as("a named argument is one")
                .isFalse();
    }

    // --- a read again with overloads in another order is not the same content: all estimates are dropped

    @Test
    void overloadsInAnotherOrderAreTheSameContent() {
        Routine a = plpgsql("f", "begin perform 1; end");
        Routine b = plpgsql("f", "begin perform 2; end");
        assertThat(RoutineDefinitions.of(List.of(a, b)).sameContent(RoutineDefinitions.of(List.of(b, a)))).isTrue();
    }
}
