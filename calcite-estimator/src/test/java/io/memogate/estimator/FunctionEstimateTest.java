package io.memogate.estimator;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.FunctionDefinitions.Function;
import io.memogate.estimator.ViewDefinitions.View;
import io.memogate.estimator.planner.IndexedColumns;
import io.memogate.estimator.postgres.PlannerSettings;
import java.util.List;
import org.junit.jupiter.api.Test;

/** SQL functions PostgreSQL inlines into FROM: a "parameterized view" is its query, as a view is. */
class FunctionEstimateTest {

    /** Three tables, filtered by the argument. */
    private static final Function SALES_SINCE = new Function("sales_since", 1,
            "SELECT f.id, da.name FROM f JOIN da ON f.a = da.id JOIN db ON f.b = db.id WHERE f.day > $1");

    private final CompileEstimator estimator = new CompileEstimator();

    @Test
    void aCallOfAnInlinedFunctionIsItsQuery() {
        Catalog catalog = catalog(SALES_SINCE);
        String statement = "SELECT count(*) FROM sales_since('2024-01-01')";
        assertThat(estimate(statement, Catalog.NONE).bypass()).as("a function scan by its text").isTrue();

        CompileEstimate inlined = estimate(statement, catalog);
        assertThat(inlined.bypass()).isFalse();
        assertThat(inlined.largestProblem()).isEqualTo(3);
        assertThat(inlined.blocks()).isEqualTo(1);
        assertThat(inlined.reason()).contains("1 SQL function call(s) inlined");
        CompileEstimate joined = estimate("SELECT * FROM public.sales_since($1) AS s JOIN g ON g.id = s.id, h"
                + " WHERE h.name = s.name", catalog);
        assertThat(joined.largestProblem()).as("its three tables, g and h").isEqualTo(5);
    }

    /** Another number of arguments is another function, and a body of two statements is never inlined. */
    @Test
    void onlyTheFunctionCalledAndASingleSelectAreInlined() {
        CompileEstimate otherArguments = estimate("SELECT * FROM sales_since('2024-01-01', 2)", catalog(SALES_SINCE));
        assertThat(otherArguments.reason()).doesNotContain("inlined");
        assertThat(otherArguments.largestProblem()).as("one function scan: no join search").isZero();
        Catalog twoStatements = catalog(new Function("two", 0,
                "SELECT 1; SELECT f.id FROM f JOIN da ON f.a = da.id"));
        assertThat(estimate("SELECT * FROM two(), g WHERE g.id = 1", twoStatements).largestProblem())
                .as("two() is a function scan joined to g").isEqualTo(2);
    }

    /** A call that leaves defaults out, or passes a VARIADIC parameter several values, is the same function. */
    @Test
    void defaultsAndVariadicArgumentsAreTheSameFunction() {
        Catalog catalog = catalog(new Function("since", 2, 1, false, SALES_SINCE.body()),
                new Function("any_of", 1, 0, true, SALES_SINCE.body()));
        assertThat(estimate("SELECT * FROM since('2024-01-01')", catalog).largestProblem()).isEqualTo(3);
        assertThat(estimate("SELECT * FROM since('2024-01-01', 5)", catalog).largestProblem()).isEqualTo(3);
        assertThat(estimate("SELECT * FROM since()", catalog).reason()).as("one argument is needed")
                .doesNotContain("inlined");
        assertThat(estimate("SELECT * FROM any_of(1, 2, 3)", catalog).largestProblem()).isEqualTo(3);
    }

    /** PostgreSQL inlines no call whose arguments hold a sub-select: it is a function scan. */
    @Test
    void aSubSelectArgumentKeepsItAFunctionScan() {
        CompileEstimate e = estimate("SELECT * FROM sales_since((SELECT max(d) FROM cal)) s JOIN g ON g.id = s.id",
                catalog(SALES_SINCE));
        assertThat(e.reason()).doesNotContain("inlined");
        assertThat(e.largestProblem()).as("the function scan and g").isEqualTo(2);
        CompileEstimate random = estimate("SELECT * FROM sales_since(current_date - 30 * random())",
                catalog(SALES_SINCE));
        assertThat(random.parser()).isEqualTo(CompileEstimate.Parser.CALCITE);
        assertThat(random.reason()).as("a volatile argument").doesNotContain("inlined");
        assertThat(estimate("SELECT * FROM sales_since(current_date - 30)", catalog(SALES_SINCE)).reason())
                .as("a stable one").contains("inlined");
    }

    /** A function over a view: both are expanded, as PostgreSQL's rewriter and planner do one after the other. */
    @Test
    void aFunctionOverAViewExpandsBoth() {
        Catalog catalog = new Catalog(IndexedColumns.NONE,
                ViewDefinitions.of(List.of(new View("pairs", "SELECT a.id FROM a JOIN b ON a.id = b.id", false))),
                FunctionDefinitions.of(List.of(new Function("pairs_with_c", 0,
                        "SELECT p.id FROM pairs p JOIN c ON c.id = p.id"))));
        CompileEstimate e = estimate("SELECT * FROM pairs_with_c()", catalog);
        assertThat(e.largestProblem()).isEqualTo(3);
        assertThat(e.reason()).contains("1 view(s) expanded").contains("1 SQL function call(s) inlined");
    }

    /** A function calling itself through another schema's function of its name is inlined once. */
    @Test
    void aFunctionNamingItselfStopsThere() {
        Catalog catalog = catalog(new Function("loop", 0, "SELECT l.id FROM other.loop() l JOIN t ON t.id = l.id"));
        CompileEstimate e = estimate("SELECT * FROM loop()", catalog);
        assertThat(e.largestProblem()).isEqualTo(2);
        assertThat(e.reason()).contains("1 SQL function call(s) inlined");
    }

    private static Catalog catalog(Function... functions) {
        return new Catalog(IndexedColumns.NONE, ViewDefinitions.NONE, FunctionDefinitions.of(List.of(functions)));
    }

    private CompileEstimate estimate(String sql, Catalog catalog) {
        return estimator.estimate(sql, PlannerSettings.DEFAULTS, PreparedStatementTexts.NONE, catalog);
    }
}
