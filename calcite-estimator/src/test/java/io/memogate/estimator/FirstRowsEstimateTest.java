package io.memogate.estimator;

import static io.memogate.estimator.Fixture.sql;
import static org.assertj.core.api.Assertions.assertThat;

import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Test;

/**
 * Statements PostgreSQL plans for their first rows (LIMIT, FETCH FIRST, cursors) keep the paths that
 * are cheapest to start as well as the cheapest overall, and on real tables need several times the
 * memory: the demo warehouse's 13-table star took 104 MB to plan without its LIMIT 20 and 1.3 GB with
 * it. The estimator must tell these apart, block by block.
 */
class FirstRowsEstimateTest {

    /** A 4-table chain: 10 pairs. */
    private static final String CHAIN = "SELECT * FROM a JOIN b ON a.x = b.x JOIN c ON b.y = c.y JOIN d ON c.z = d.z";

    @Test
    void aLimitOrFetchFirstPlansTheWholeSearchForItsFirstRows() {
        CompileEstimate all = sql(CHAIN).estimates(10);
        CompileEstimate limited = sql(CHAIN + " LIMIT 20").estimates(10);
        assertThat(all.terms().fastStartJoinPairs()).isZero();
        assertThat(limited.terms().fastStartJoinPairs()).isEqualTo(10);
        assertThat(limited.terms().joinPairs()).isZero();
        assertThat(limited.estimatedBytes()).isGreaterThan(all.estimatedBytes());
        assertThat(limited.reason()).contains("first rows");
        assertThat(sql(CHAIN + " ORDER BY a.x FETCH FIRST 5 ROWS ONLY").estimates(10).terms().fastStartJoinPairs())
                .isEqualTo(10);
        assertThat(sql(CHAIN + " LIMIT $1").estimates(10).terms().fastStartJoinPairs()).isEqualTo(10);
    }

    /**
     * With Memoize off, PostgreSQL 18.6 planned the demo warehouse's LIMIT reports in 7-18% of their memory (t01 under
     * wide settings: 1,361 MB, 101 MB without Memoize), and counted as planned for all rows they are estimated at
     * 0.65-1.12x of it: the first-rows terms stand for the Memoize paths tried against every outer path kept for the
     * first rows.
     */
    @Test
    void withMemoizeOffAFirstRowsSearchIsEstimatedAsAnAllRowsOne() {
        CompileEstimate limited = sql(CHAIN + " LIMIT 20").settings("enable_memoize", "off").estimates(10);
        CompileEstimate all = sql(CHAIN).estimates(10);
        assertThat(limited.terms().fastStartJoinPairs()).isZero();
        assertThat(limited.terms().joinPairs()).isEqualTo(10);
        assertThat(limited.estimatedBytes()).isLessThan(sql(CHAIN + " LIMIT 20").estimates(10).estimatedBytes())
                .isCloseTo(all.estimatedBytes(), Percentage.withPercentage(5));
    }

    /**
     * A 10-table chain of explicit JOINs under join_collapse_limit 8: the first eight written are one search
     * (a chain of 8: 84 pairs) and the second joins their result J with t9 and t10 (4 pairs), three of which
     * hold J: planned for the first rows, those three cost more ({@code fastStartSubProblemPairs}).
     */
    @Test
    void firstRowsPairsHoldingASubProblemCountAgain() {
        StringBuilder chain = new StringBuilder("SELECT * FROM t1");
        for (int i = 2; i <= 10; i++) {
            chain.append(" JOIN t").append(i).append(" ON t").append(i - 1).append(".ref = t").append(i).append(".id");
        }
        CompileEstimate limited = sql(chain + " LIMIT 10").estimates(84 + 4);
        assertThat(limited.terms().fastStartSubProblemPairs()).isEqualTo(3);
        assertThat(sql(chain.toString()).estimates(84 + 4).terms().fastStartSubProblemPairs())
                .as("planned for all rows").isZero();
        CompileEstimate oneSearch = sql(chain + " LIMIT 10").settings("join_collapse_limit", "20").estimates(165);
        assertThat(oneSearch.terms().fastStartSubProblemPairs()).as("no collapse limit reached").isZero();
    }

    @Test
    void offsetAloneAndLimitAllReadEveryRow() {
        assertThat(sql(CHAIN + " OFFSET 10").estimates(10).terms().fastStartJoinPairs()).isZero();
        assertThat(sql(CHAIN + " LIMIT ALL").estimates(10).terms().fastStartJoinPairs()).isZero();
    }

    @Test
    void onlyTheLimitedBlockIsPlannedForItsFirstRows() {
        // The outer block joins x and the sub-select (1 pair); the sub-select, not pulled up because of
        // its LIMIT, joins its chain (10 pairs) for its first rows.
        CompileEstimate e = sql("SELECT * FROM x JOIN (" + CHAIN + " LIMIT 5) s ON s.x = x.x").estimates(11);
        assertThat(e.terms().fastStartJoinPairs()).isEqualTo(10);
        assertThat(e.terms().joinPairs()).isEqualTo(1);
    }

    @Test
    void aCteQueryKeepsItsLimit() {
        CompileEstimate e = sql("WITH t AS (SELECT * FROM e) " + CHAIN + " JOIN t ON t.x = d.x LIMIT 3")
                .estimates(sql(CHAIN + " JOIN e ON e.x = d.x").estimate().memoPairs());
        assertThat(e.terms().joinPairs()).isZero();
    }

    @Test
    void unionAllBranchesInheritTheLimitButUnionBranchesReadEveryRow() {
        String branch = "SELECT a.x FROM a JOIN b ON a.x = b.x JOIN c ON b.y = c.y";
        CompileEstimate unionAll = sql(branch + " UNION ALL " + branch + " LIMIT 5").estimates(8);
        assertThat(unionAll.terms().fastStartJoinPairs()).isEqualTo(8);
        CompileEstimate union = sql(branch + " UNION " + branch + " LIMIT 5").estimates(8);
        assertThat(union.terms().fastStartJoinPairs()).isZero();
    }

    @Test
    void aCursorIsPlannedForItsFirstRows() {
        CompileEstimate cursor = sql("DECLARE c CURSOR FOR " + CHAIN).estimates(10);
        assertThat(cursor.terms().fastStartJoinPairs()).isEqualTo(10);
    }

    @Test
    void theLexicalFallbackSeesTheLimitToo() {
        // The jsonb ? operator defeats Calcite; the fallback assumes a star of the 4 items (9 pairs).
        CompileEstimate e = sql("SELECT * FROM a, b, c, d WHERE a.j ? 'k' AND a.x = b.x LIMIT 10").fallsBack();
        assertThat(e.terms().fastStartJoinPairs()).isEqualTo(e.memoPairs()).isPositive();
        assertThat(sql("SELECT * FROM a, b, c, d WHERE a.j ? 'k' AND a.x = b.x").fallsBack().terms().fastStartJoinPairs())
                .isZero();
    }
}
