package io.memogate.estimator;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.postgres.PlannerSettings;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Blocks PostgreSQL plans from a copy of their query tree: every one but the statement's own. A JOIN's range-table
 * entry lists every column of both its sides, so the copy grows with the relations beneath each JOIN. Measured on
 * PostgreSQL 18.6 over tables of 18 columns: a chain of 8 tables joined with JOIN ... ON planned in 332 kB as the
 * statement, 458 kB as a FROM sub-select that is not pulled up, and 1,027 kB as each branch of a UNION ALL;
 * comma joins have no such entry.
 */
class CopiedJoinsEstimateTest {

    private final CompileEstimator estimator = new CompileEstimator();

    private static String chain(int n) {
        return "SELECT count(*) FROM s0 t0 " + IntStream.range(1, n)
                .mapToObj(i -> "JOIN s" + i + " t" + i + " ON t" + (i - 1) + ".k" + i + " = t" + i + ".id")
                .collect(Collectors.joining(" "));
    }

    private CompileEstimate estimate(String sql) {
        return estimator.estimate(sql, PlannerSettings.DEFAULTS);
    }

    @Test
    void theStatementsOwnJoinsAreNotCopied() {
        assertThat(estimate(chain(8)).terms().copiedJoinRelations()).isZero();
    }

    @Test
    void aSubSelectLeftWholeCopiesTheRelationsBeneathEachOfItsJoins() {
        CompileEstimate top = estimate(chain(8));
        CompileEstimate sub = estimate("SELECT * FROM (" + chain(8) + ") x");
        // A left-deep chain of n: its JOINs have 2, 3, ..., n relations beneath them.
        assertThat(sub.terms().copiedJoinRelations()).isEqualTo(2 + 3 + 4 + 5 + 6 + 7 + 8);
        assertThat(sub.terms().joinPairs()).isEqualTo(top.terms().joinPairs());
        // 458 kB against 332 kB measured: the sub-select costs about 126 kB more than the statement.
        assertThat(sub.estimatedBytes() - top.estimatedBytes()).isBetween(100_000L, 160_000L);
    }

    /**
     * Each relation beneath a UNION ALL branch's JOINs weighs 1.25, each of its relations 0.7 more: the branches are
     * copied to be pulled up, then to be planned.
     */
    @Test
    void everyUnionAllBranchIsCopied() {
        CompileEstimate union = estimate(chain(4) + " UNION ALL " + chain(4));
        assertThat(union.terms().copiedJoinRelations()).isCloseTo(1.25 * 2 * (2 + 3 + 4) + 0.7 * 2 * 4, Offset.offset(1e-9));
    }

    /**
     * Two chains of n under {@code count(*)} (PostgreSQL 18.6, 2,000-row tables of 18 columns): a UNION ALL used 25,
     * 94, 192 and 329 kB more than a UNION for n = 2, 4, 6 and 8 joined with JOIN ... ON, and 8, 18, 29 and 40 kB more
     * written as comma joins. The JOINs' share is 4.1-4.3 kB a relation beneath them, a third more than a FROM
     * sub-select's copy, the relations' own 2.0-2.5 kB each.
     */
    @ParameterizedTest
    @CsvSource({"2, 25, 8", "4, 94, 18", "6, 192, 29", "8, 329, 40"})
    void aUnionAllBranchCostsMoreARelationThanASubSelect(int n, int joinsKb, int commasKb) {
        String chain = chain(n);
        String commas = "SELECT count(*) FROM " + IntStream.range(0, n).mapToObj(i -> "s" + i + " t" + i)
                .collect(Collectors.joining(", ")) + " WHERE " + IntStream.range(1, n)
                .mapToObj(i -> "t" + (i - 1) + ".k" + i + " = t" + i + ".id").collect(Collectors.joining(" AND "));
        long joins = estimate(chain + " UNION ALL " + chain).estimatedBytes()
                - estimate(chain + " UNION " + chain).estimatedBytes();
        long commaJoins = estimate(commas + " UNION ALL " + commas).estimatedBytes()
                - estimate(commas + " UNION " + commas).estimatedBytes();
        assertThat((double) joins / (joinsKb * 1024)).as("JOIN chains of %d", n).isBetween(0.8, 1.25);
        assertThat((double) commaJoins / (commasKb * 1024)).as("comma chains of %d", n).isBetween(0.75, 1.33);
    }

    /**
     * {@code recurse_set_operations} plans the branches of a UNION, INTERSECT or EXCEPT as they stand. Two chains of
     * 8 (254 kB each alone, 2,000-row tables of 18 columns, PostgreSQL 18.6) used 546 kB as a UNION, 547 kB as an
     * INTERSECT or an EXCEPT and 867 kB as a UNION ALL; three used 813 kB as UNION throughout, 811 kB with the last
     * a UNION ALL (not pulled up: the tree is not UNION ALL throughout), 1,240 kB as UNION ALL throughout.
     */
    @Test
    void aUnionWithoutAllPlansItsBranchesInPlace() {
        String eight = chain(8);
        for (String operator : new String[] {"UNION", "INTERSECT", "EXCEPT"}) {
            assertThat(estimate(eight + " " + operator + " " + eight).terms().copiedJoinRelations()).as(operator)
                    .isZero();
        }
        assertThat(estimate(eight + " UNION " + eight + " UNION ALL " + eight).terms().copiedJoinRelations())
                .isZero();
        CompileEstimate union = estimate(eight + " UNION " + eight);
        CompileEstimate unionAll = estimate(eight + " UNION ALL " + eight);
        assertThat(unionAll.terms().copiedJoinRelations()).isCloseTo(1.25 * 2 * 35 + 0.7 * 2 * 8, Offset.offset(1e-9));
        // 867 - 546 = 321 kB measured for the two copies.
        assertThat(unionAll.estimatedBytes() - union.estimatedBytes()).isBetween(160_000L, 400_000L);
    }

    /** A UNION in a FROM sub-select is copied whole with it: 777 kB against 546 kB as the statement. */
    @Test
    void aUnionInASubSelectIsCopiedWithIt() {
        String eight = chain(8);
        assertThat(estimate("SELECT count(*) FROM (" + eight + " UNION " + eight + ") u").terms()
                .copiedJoinRelations()).isEqualTo(2 * 35);
        // A UNION ALL there weighs its JOINs' relations as a pulled-up one's; what its other relations add was not
        // measured, and they are not counted.
        assertThat(estimate("SELECT count(*) FROM (" + eight + " UNION ALL " + eight + ") u").terms()
                .copiedJoinRelations()).isCloseTo(1.25 * 2 * 35, Offset.offset(1e-9));
    }

    /**
     * An IN's sub-select is a range-table entry that {@code pull_up_simple_subquery} pulls up, rewriting (and so
     * copying) every JOIN entry's column list of the level it joins; an EXISTS merges its FROM without one. Beneath
     * a chain of 4, 6 and 8 tables joined with JOIN ... ON (9, 20 and 35 relations beneath its JOINs), the IN over
     * one table used 18, 34 and 57 kB more than the EXISTS (PostgreSQL 18.6, 2,000-row tables of 18 columns: 140
     * against 122, 276 against 242, 402 against 345 kB).
     */
    @ParameterizedTest
    @CsvSource({"4, 18", "6, 34", "8, 57"})
    void aPulledUpSubSelectRewritesTheJoinsOfItsLevel(int n, int measuredKb) {
        String last = "t" + (n - 1);
        CompileEstimate in = estimate(chain(n) + " WHERE " + last + ".k3 IN (SELECT t9.k0 FROM s9 t9)");
        CompileEstimate exists = estimate(chain(n) + " WHERE EXISTS (SELECT 1 FROM s9 t9 WHERE t9.k0 = " + last
                + ".k3)");
        assertThat(in.terms().joinPairs()).isEqualTo(exists.terms().joinPairs());
        assertThat(exists.terms().copiedJoinRelations()).isZero();
        double added = in.estimatedBytes() - exists.estimatedBytes();
        assertThat(added / (measuredKb * 1024.0)).isBetween(0.8, 1.25);
    }

    @Test
    void commaJoinsAndSubLinksHaveNoJoinEntry() {
        CompileEstimate comma = estimate("SELECT * FROM (SELECT count(*) FROM s0 t0, s1 t1, s2 t2"
                + " WHERE t0.k1 = t1.id AND t1.k2 = t2.id) x");
        assertThat(comma.terms().copiedJoinRelations()).isZero();
        // The EXISTS becomes a semi join, which has no range-table entry; the JOIN inside it is copied to be pulled up.
        CompileEstimate exists = estimate("SELECT count(*) FROM s0 t0 WHERE EXISTS (SELECT 1 FROM s1 t1"
                + " JOIN s2 t2 ON t1.k2 = t2.id WHERE t1.k0 = t0.id)");
        assertThat(exists.terms().copiedJoinRelations()).isEqualTo(2);
    }
}
