package io.memogate.estimator.sqlserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.CompileEstimate;
import io.memogate.estimator.CompileEstimator;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The SQL Server model as a DBA sees its estimates: more joins cost more until the task budget ends the search,
 * the published showplans' ranges with the default coefficients, IN lists and batches weighing per element,
 * and the lexical reading of what Calcite does not read.
 */
class TsqlEstimateTest {

    private static final CompileEstimator ESTIMATOR = new CompileEstimator(new SqlServerDialect());

    /** JOB 1a: five tables, as the published SQL Server 2019 showplan ran it (CompileMemory 1.6-2.0 MB). */
    private static final String JOB_1A = """
            SELECT MIN(mc.note) AS production_note, MIN(t.title) AS movie_title, MIN(t.production_year) AS movie_year
            FROM company_type AS ct, info_type AS it, movie_companies AS mc, movie_info_idx AS mi_idx, title AS t
            WHERE ct.kind = 'production companies' AND it.info = 'top 250 rank'
              AND mc.note NOT LIKE '%(as Metro-Goldwyn-Mayer Pictures)%'
              AND (mc.note LIKE '%(co-production)%' OR mc.note LIKE '%(presents)%')
              AND ct.id = mc.company_type_id AND t.id = mc.movie_id AND t.id = mi_idx.movie_id
              AND mc.movie_id = mi_idx.movie_id AND it.id = mi_idx.info_type_id""";

    /** JOB 10a: seven tables (4.0-4.7 MB, ended by TimeOut). */
    private static final String JOB_10A = """
            SELECT MIN(chn.name) AS uncredited_voiced_character, MIN(t.title) AS russian_movie
            FROM char_name AS chn, cast_info AS ci, company_name AS cn, company_type AS ct, movie_companies AS mc,
                 role_type AS rt, title AS t
            WHERE ci.note LIKE '%(voice)%' AND ci.note LIKE '%(uncredited)%' AND cn.country_code = '[ru]'
              AND rt.role = 'actor' AND t.production_year > 2005 AND t.id = mc.movie_id AND t.id = ci.movie_id
              AND ci.movie_id = mc.movie_id AND chn.id = ci.person_role_id AND rt.id = ci.role_id
              AND cn.id = mc.company_id AND ct.id = mc.company_type_id""";

    private static CompileEstimate estimate(String sql) {
        return ESTIMATOR.estimate(sql, null);
    }

    /** A star of {@code n} tables around [dbo].[f], joined with T-SQL's brackets and hints. */
    private static String star(int n) {
        return "SELECT TOP 10 [f].[id] FROM [dbo].[f] WITH (NOLOCK)" + IntStream.range(1, n)
                .mapToObj(i -> " INNER JOIN [dbo].[d" + i + "] ON [d" + i + "].[id] = [f].[d" + i + "_id]")
                .collect(Collectors.joining()) + " OPTION (RECOMPILE)";
    }

    @Test
    void aSevenTableJoinCostsMoreThanAThreeTableOne() {
        CompileEstimate three = estimate("SELECT c.id FROM dbo.customers c INNER JOIN dbo.orders o ON o.customer_id = c.id "
                + "INNER JOIN dbo.order_lines l ON l.order_id = o.id WHERE o.created > @P0");
        CompileEstimate seven = estimate(JOB_10A);
        assertThat(three.largestProblem()).isEqualTo(3);
        assertThat(seven.largestProblem()).isEqualTo(7);
        assertThat(seven.search()).isEqualTo(CompileEstimate.Search.CASCADES);
        assertThat(seven.estimatedBytes()).isGreaterThan(2 * three.estimatedBytes());
    }

    @Test
    void theDefaultsGiveThePublishedShowplansRanges() {
        assertThat(estimate(JOB_1A).estimatedBytes()).isBetween(1_600_000L, 2_000L * 1024 * 1024 / 1000 * 1000);
        assertThat(estimate(JOB_10A).estimatedBytes()).isBetween(4_000_000L, 4_700L * 1024 * 1024 / 1000);
    }

    @Test
    void memoryGrowsWithTheJoinsThenSaturatesAtTheTaskBudget() {
        long[] bytes = IntStream.of(3, 5, 8, 10, 16).mapToLong(n -> estimate(star(n)).estimatedBytes()).toArray();
        assertThat(bytes).isSorted();
        assertThat(estimate(star(5)).terms().joinPairs()).isLessThan(SqlServerCoefficients.DEFAULTS.exploredPairBudget());
        assertThat(estimate(star(10)).terms().joinPairs()).isEqualTo(SqlServerCoefficients.DEFAULTS.exploredPairBudget());
        assertThat(estimate(star(16)).terms().joinPairs()).isEqualTo(SqlServerCoefficients.DEFAULTS.exploredPairBudget());
        // Past the budget only the tables and the text add: six more tables cost less than going from 3 to 8.
        assertThat(bytes[4] - bytes[3]).isLessThan(bytes[2] - bytes[0]);
    }

    @Test
    void inListsAndBatchesWeighPerElement() {
        String values = IntStream.range(0, 5_000).mapToObj(Integer::toString).collect(Collectors.joining(", "));
        CompileEstimate longList = estimate("SELECT id FROM dbo.orders WHERE customer_id IN (" + values + ")");
        assertThat(longList.bypass()).isFalse();
        assertThat(longList.estimatedBytes()).isGreaterThan(5_000_000L);
        assertThat(estimate("SELECT id FROM dbo.orders WHERE customer_id IN (1, 2, 3)").bypass()).isTrue();

        String one = "UPDATE dbo.counters SET n = n + 1 WHERE id = 7\n";
        assertThat(estimate(one).bypass()).isTrue();
        CompileEstimate batch = estimate(one.repeat(100));
        assertThat(batch.statements()).isEqualTo(100);
        assertThat(batch.bypass()).isFalse();
        assertThat(estimate(JOB_1A + "\n" + one.repeat(20)).estimatedBytes()).isGreaterThan(estimate(JOB_1A).estimatedBytes());
    }

    @Test
    void whatCalciteDoesNotReadIsEstimatedFromItsTokens() {
        CompileEstimate pivot = estimate("SELECT p.* FROM (SELECT a, b, c FROM t JOIN u ON u.id = t.id JOIN v ON v.id = u.id) s "
                + "PIVOT (SUM(c) FOR b IN ([x], [y])) p");
        assertThat(pivot.parser()).isEqualTo(CompileEstimate.Parser.LEXICAL);
        assertThat(pivot.reason()).contains("Calcite could not read it");
        assertThat(pivot.bypass()).isFalse();
        assertThat(pivot.largestProblem()).isGreaterThanOrEqualTo(3);
        CompileEstimate method = estimate("SELECT g.loc.STDistance(geography::Point(1, 2, 4326)) FROM g JOIN h ON h.id = g.id");
        assertThat(method.parser()).isEqualTo(CompileEstimate.Parser.LEXICAL);
        assertThat(method.estimatedBytes()).isGreaterThan(estimate("SELECT a FROM g JOIN h ON h.id = g.id").estimatedBytes() / 2);
    }

    @Test
    void statementsSqlServerDoesNotPlanBypass() {
        assertThat(estimate("SET NOCOUNT ON").bypass()).isTrue();
        assertThat(estimate("EXEC dbo.report @from = 1").bypass()).isTrue();
        assertThat(estimate("BEGIN TRAN").bypass()).isTrue();
    }
}
