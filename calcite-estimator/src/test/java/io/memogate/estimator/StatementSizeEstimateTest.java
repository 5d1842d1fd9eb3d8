package io.memogate.estimator;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.postgres.PlannerSettings;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Statements whose text, not their joins, makes the planner's memory: long IN lists, OR chains, VALUES rows,
 * many set-operation branches, many statements in one text. PostgreSQL 18 planned an IN list of 100,000
 * constants over one table in 33.6 MB; the one-relation bypass must not let such a statement through
 * unseen, and must stay for the small statements it exists for. The figures measured against these
 * estimates are in {@code StatementSizeAccuracyIT} and bench/RESULTS.md.
 */
class StatementSizeEstimateTest {

    private final CompileEstimator estimator = new CompileEstimator();

    private CompileEstimate estimate(String sql) {
        return estimator.estimate(sql, PlannerSettings.DEFAULTS);
    }

    private static String numbers(int n) {
        return IntStream.rangeClosed(1, n).mapToObj(Integer::toString).collect(Collectors.joining(","));
    }

    @Test
    void smallOneRelationStatementsStillBypass() {
        for (String sql : new String[] {
            "select * from t where id = 42",
            "select * from t where id in (" + numbers(300) + ")",
            "select * from t where id = any('{" + numbers(300) + "}')",
            "insert into t (a, b) values " + IntStream.range(0, 200).mapToObj(i -> "(" + i + ", 'x')")
                    .collect(Collectors.joining(", ")),
            "update t set a = 1, b = 2, c = 'x' where id = 7 returning *",
            "select * from t where " + IntStream.range(0, 50).mapToObj(i -> "id = " + i)
                    .collect(Collectors.joining(" or ")),
            "select 1; select 2; select 3",
        }) {
            CompileEstimate e = estimate(sql);
            assertThat(e.bypass()).as(sql.substring(0, Math.min(80, sql.length()))).isTrue();
            assertThat(e.parser()).isEqualTo(CompileEstimate.Parser.NONE);
        }
    }

    @Test
    void aLongInListOverOneRelationTakesAdmissionByItsSize() {
        CompileEstimate e = estimate("select * from t where id in (" + numbers(100_000) + ")");
        assertThat(e.bypass()).isFalse();
        assertThat(e.terms().listElements()).isEqualTo(100_000);
        // PostgreSQL 18 planned it in 33.6 MB
        assertThat(e.estimatedBytes()).isBetween(25_000_000L, 45_000_000L);
        assertThat(e.reason()).contains("100000 constants").contains("not parsed");
        assertThat(e.parser()).isEqualTo(CompileEstimate.Parser.LEXICAL);

        assertThat(estimate("select * from t where " + IntStream.range(0, 2000).mapToObj(i -> "id = " + i)
                .collect(Collectors.joining(" or "))).bypass()).as("2,000 ORed equalities, 2.5 MB").isFalse();
    }

    /** The fingerprint collapses a list of constants; the cache must not give a short list's estimate to a long one. */
    @Test
    void theCacheTellsAShortListFromALongOne() {
        String join = "select * from a join b on a.id = b.id where a.id in (";
        CompileEstimate shortList = estimate(join + numbers(10) + ")");
        CompileEstimate longList = estimate(join + numbers(100_000) + ")");
        assertThat(longList.fingerprintHash()).isEqualTo(shortList.fingerprintHash());
        assertThat(longList.estimatedBytes()).isGreaterThan(shortList.estimatedBytes() + 20_000_000L);
        assertThat(estimate(join + numbers(12) + ")").estimatedBytes()).as("answered from the cache")
                .isEqualTo(shortList.estimatedBytes());

        CompileEstimate oneRelationShort = estimate("select * from t where id in (" + numbers(10) + ")");
        CompileEstimate oneRelationLong = estimate("select * from t where id in (" + numbers(20_000) + ")");
        assertThat(oneRelationShort.bypass()).isTrue();
        assertThat(oneRelationLong.bypass()).isFalse();
    }

    @Test
    void setOperationBranchesCostLessThanQueryBlocks() {
        String branches = IntStream.range(0, 500).mapToObj(i -> "select id, v from t where id = " + i)
                .collect(Collectors.joining(" union all "));
        CompileEstimate e = estimate(branches);
        assertThat(e.terms().setOperationBranches()).isEqualTo(500);
        assertThat(e.terms().blocks()).isEqualTo(1);
        // PostgreSQL 18 planned it in 7.8 MB
        assertThat(e.estimatedBytes()).isBetween(5_000_000L, 11_000_000L);
        CompileEstimate withCte = estimate("with c as materialized (select 1 as id, 2 as v) " + branches
                + " union all select * from c");
        assertThat(withCte.terms().setOperationBranches()).isEqualTo(501);
    }

    @Test
    void aTextOfThousandsOfStatementsTakesAdmission() {
        String text = IntStream.range(0, 10_000).mapToObj(i -> "select * from t where id = " + i)
                .collect(Collectors.joining("; "));
        CompileEstimate e = estimate(text);
        assertThat(e.bypass()).isFalse();
        assertThat(e.statements()).isEqualTo(10_000);
        assertThat(e.terms().otherStatements()).isEqualTo(9_999);
        // the backend's peak grew by 13 MB running it on PostgreSQL 18
        assertThat(e.estimatedBytes()).isBetween(8_000_000L, 20_000_000L);
    }
}
