package io.memogate.estimator;

import static io.memogate.estimator.Fixture.sql;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Join clauses beyond the first between the two sides of each pair, from SQL: equivalence classes
 * must be merged (one clause per class per pair) and distinct classes kept apart.
 */
class JoinClauseEstimateTest {

    /** A clause per edge on its own columns: each pair crosses |S1|·|S2| classes, n(n-1)3^(n-2)/2 in all. */
    @ParameterizedTest
    @ValueSource(ints = {3, 5, 8, 10})
    void aCliqueWithAClassPerEdge(int n) {
        long crossings = (long) n * (n - 1) * pow3(n - 2) / 2;
        CompileEstimate e = sql(Shapes.clique(n)).wide().estimates(Shapes.cliquePairs(n));
        assertThat(e.terms().extraJoinClauses()).as("%s", e).isEqualTo(crossings - Shapes.cliquePairs(n));
    }

    /** Every table joined on one column: one class, a clique of pairs each linked by that class alone. */
    @ParameterizedTest
    @ValueSource(ints = {3, 6, 10})
    void aCliqueOnOneColumn(int n) {
        List<String> predicates = new ArrayList<>();
        for (int i = 1; i < n; i++) {
            predicates.add("t" + (i - 1) + ".k = t" + i + ".k");
        }
        String query = "SELECT * FROM " + Shapes.from(n) + " WHERE " + String.join(" AND ", predicates);
        CompileEstimate e = sql(query).wide().estimates(Shapes.cliquePairs(n));
        assertThat(e.terms().extraJoinClauses()).as("%s", e).isZero();
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 8})
    void treesAddNothingAndACycleAddsItsCuts(int n) {
        assertThat(sql(Shapes.chain(n)).estimates(Shapes.chainPairs(n)).terms().extraJoinClauses()).isZero();
        assertThat(sql(Shapes.star(n)).estimates(Shapes.starPairs(n)).terms().extraJoinClauses()).isZero();
        assertThat(sql(Shapes.cycle(n)).estimates(Shapes.cyclePairs(n)).terms().extraJoinClauses())
                .isEqualTo(n * (n - 1) / 2.0);
    }

    @Test
    void aTwoColumnKeyIsTwoClausesAndAnExpressionClauseIsItsOwn() {
        // a =2= b - c: the pairs cut at a-b are a|b and a|bc
        assertThat(sql("SELECT * FROM a JOIN b ON a.x = b.x AND a.y = b.y JOIN c ON b.z = c.z")
                .estimates(4).terms().extraJoinClauses()).isEqualTo(2);
        // a non-equality beside the class is a join filter, no merge join to try: nothing extra
        assertThat(sql("SELECT * FROM a, b WHERE a.x = b.x AND a.y < b.y").estimates(1).terms().extraJoinClauses())
                .isZero();
        // an equality of expressions beside the class is one more clause a merge or hash join can use
        assertThat(sql("SELECT * FROM a, b WHERE a.x = b.x AND a.y + 1 = b.y * 2").estimates(1).terms()
                .extraJoinClauses()).isEqualTo(1);
        // a.x = b.x, b.x = c.x is one class over a, b, c: every pair of the triangle crosses it once
        assertThat(sql("SELECT * FROM a, b, c WHERE a.x = b.x AND b.x = c.x").estimates(6).terms()
                .extraJoinClauses()).isZero();
    }

    /** TPC-DS q4's shape: comparisons over several relations beside one class cost no merge joins. */
    @Test
    void comparisonsOverSeveralRelationsAreJoinFilters() {
        CompileEstimate e = sql("SELECT * FROM a, b, c WHERE a.k = b.k AND b.k = c.k"
                + " AND CASE WHEN a.v > 0 THEN b.v / a.v END > CASE WHEN c.v > 0 THEN b.v / c.v END"
                + " AND (a.s = 'x' OR c.s = 'y')").estimates(6);
        assertThat(e.terms().extraJoinClauses()).isZero();
    }

    /** TPC-DS q88's shape: aggregates cross-joined; their pairs are Cartesian, counted apart. */
    @Test
    void crossJoinedSubSelectsMakeCartesianPairs() {
        CompileEstimate e = sql("SELECT * FROM (SELECT count(*) FROM a, b WHERE a.x = b.x) s1,"
                + " (SELECT count(*) FROM c, d WHERE c.x = d.x) s2, (SELECT count(*) FROM e, f WHERE e.x = f.x) s3")
                .estimates(3 + 3 * (2 * 2 - 1));
        assertThat(e.terms().cartesianPairs()).isEqualTo(9);
        assertThat(e.terms().joinPairs()).isEqualTo(3);
        assertThat(e.blocks()).isEqualTo(4);
        assertThat(e.terms().blocks()).isEqualTo(4);
    }

    /** TPC-DS q66's shape: the same joins under a long select list plan larger expression trees. */
    @Test
    void longerStatementsCountMoreTokens() {
        String joins = " FROM a, b WHERE a.x = b.x";
        String sums = java.util.stream.IntStream.range(0, 40)
                .mapToObj(i -> "sum(CASE WHEN a.m = " + i + " THEN b.v ELSE 0 END)")
                .collect(java.util.stream.Collectors.joining(", "));
        CompileEstimate short_ = sql("SELECT count(*)" + joins).estimates(1);
        CompileEstimate long_ = sql("SELECT " + sums + joins).estimates(1);
        // SELECT count ( * ) FROM a , b WHERE a . x = b . x
        assertThat(short_.terms().tokens()).isEqualTo(17);
        assertThat(long_.terms().tokens()).isGreaterThan(40 * 16);
        assertThat(long_.estimatedBytes()).isGreaterThan(short_.estimatedBytes());
    }

    @Test
    void geqoAddsNone() {
        CompileEstimate e = sql(Shapes.clique(12)).estimate();
        assertThat(e.terms().geqoGenes()).isPositive();
        assertThat(e.terms().extraJoinClauses()).isZero();
    }

    private static long pow3(int e) {
        long r = 1;
        for (int i = 0; i < e; i++) {
            r *= 3;
        }
        return r;
    }
}
