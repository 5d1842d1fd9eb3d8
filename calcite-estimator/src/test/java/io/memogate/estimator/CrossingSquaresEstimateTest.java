package io.memogate.estimator;

import static io.memogate.estimator.Fixture.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.postgres.MemoryCoefficients;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Pairs crossed by several join clauses, each its own equivalence class: PostgreSQL's memory grows with the square
 * of a pair's crossings. Measured with EXPLAIN (SUMMARY, MEMORY) on PostgreSQL 18.6, 16 tables of 2,000 rows and
 * 18 integer columns with primary keys, analyzed, both collapse limits and geqo_threshold at 20: chains whose every
 * edge is {@code c} equalities on columns of their own (a chain of {@code n} has {@code (n^3-n)/6} pairs, each
 * crossed by the {@code c} clauses of the edge it is cut at), and cliques with a class per edge (a pair crosses
 * {@code |S1|·|S2|}).
 */
class CrossingSquaresEstimateTest {

    /**
     * A clique with a class per edge against the same tables on one class: the same pairs, crossed by
     * {@code |S1|·|S2|} clauses or by one. kB used for 5 to 8 tables: 552 against 269, 2,526 against 768, 11,707
     * against 2,257, 52,798 against 6,781; the estimate adds the squares at 330 bytes, within 1.05-1.2x of that.
     */
    @ParameterizedTest
    @CsvSource({"5, 552, 269", "6, 2526, 768", "7, 11707, 2257", "8, 52798, 6781"})
    void whatAClassPerEdgeAddsToACliqueIsTheSquaresCost(int n, long perEdgeKb, long oneClassKb) {
        String oneClass = "SELECT count(*) FROM " + Shapes.from(n) + " WHERE " + IntStream.range(1, n)
                .mapToObj(i -> "t" + (i - 1) + ".k = t" + i + ".k").collect(Collectors.joining(" AND "));
        CompileEstimate perEdge = sql(Shapes.clique(n)).wide().estimates(Shapes.cliquePairs(n));
        CompileEstimate one = sql(oneClass).wide().estimates(Shapes.cliquePairs(n));
        assertThat(one.terms().crossingSquares()).isZero();
        double added = perEdge.estimatedBytes() - one.estimatedBytes();
        assertThat(added / ((perEdgeKb - oneClassKb) * 1024.0)).as("%s", perEdge).isBetween(1.0, 1.25);
    }

    /** {@code c} equalities on their own columns per edge of a chain of {@code n}. */
    private static String chain(int n, int c) {
        return "SELECT count(*) FROM t0 " + IntStream.range(1, n)
                .mapToObj(i -> "JOIN t" + i + " ON " + IntStream.range(0, c)
                        .mapToObj(k -> "t" + (i - 1) + ".c" + 2 * k + " = t" + i + ".c" + (2 * k + 1))
                        .collect(Collectors.joining(" AND ")))
                .collect(Collectors.joining(" "));
    }

    /** Each pair of a chain adds {@code c^2 - 1}: nothing with one clause per edge. */
    @ParameterizedTest
    @CsvSource({"6, 1, 0", "6, 2, 105", "8, 3, 672", "10, 4, 2475", "10, 6, 5775"})
    void aChainsPairsEachAddTheSquareOfTheirEdgesClausesLessOne(int n, int c, long squares) {
        CompileEstimate e = sql(chain(n, c)).wide().estimates((long) (n * n * n - n) / 6);
        assertThat(e.terms().crossingSquares()).as("%s", e).isEqualTo(squares);
        assertThat(e.terms().extraJoinClauses()).as("%s", e).isEqualTo((long) (n * n * n - n) / 6 * (c - 1));
    }

    /** kB used, chains of 6, 8 and 10 tables with 1, 2, 3, 4 and 6 clauses per edge. */
    @ParameterizedTest
    @CsvSource({
        "6, 1, 136", "6, 2, 204", "6, 3, 272", "6, 4, 349", "6, 6, 719",
        "8, 1, 255", "8, 2, 384", "8, 3, 527", "8, 4, 691", "8, 6, 1542",
        "10, 1, 443", "10, 2, 663", "10, 3, 925", "10, 4, 1228", "10, 6, 2849"})
    void chainsWithSeveralClausesPerEdgeAreEstimatedWithinAFactorOf2(int n, int c, long usedKb) {
        CompileEstimate e = sql(chain(n, c)).wide().estimate();
        double ratio = e.estimatedBytes() / (usedKb * 1024.0);
        assertThat(ratio).as("%s", e).isBetween(0.5, 2.0);
    }

    /**
     * What the clauses add is the square's: the memory a chain of 10 adds over one clause per edge, per pair and per
     * {@code c^2 - 1}, stays within 0.32-0.44 kB from 2 to 6 clauses, where per clause beyond the first it grows
     * from 1.3 to 2.9 kB.
     */
    @Test
    void theSquareFollowsWhatTheClausesAddBetterThanTheirCount() {
        long[] usedKb = {443, 663, 925, 1228, 2849};
        int[] clauses = {1, 2, 3, 4, 6};
        double pairs = 165;
        for (int i = 1; i < clauses.length; i++) {
            int c = clauses[i];
            double added = (usedKb[i] - usedKb[0]) * 1024.0 / pairs;
            assertThat(added / (c * c - 1)).as("bytes per square, %d clauses", c).isBetween(0.3 * 1024, 0.45 * 1024);
            CompileEstimate more = sql(chain(10, c)).wide().estimate();
            CompileEstimate one = sql(chain(10, 1)).wide().estimate();
            double estimatedAdded = (more.estimatedBytes() - one.estimatedBytes()) / pairs;
            // Tokens aside, the estimate adds bytesPerCrossingSquare per square and pair.
            double tokens = (more.terms().tokens() - one.terms().tokens())
                    * MemoryCoefficients.DEFAULTS.bytesPerToken() / pairs;
            assertThat(estimatedAdded - tokens).as("%d clauses", c)
                    .isCloseTo((c * c - 1) * MemoryCoefficients.DEFAULTS.bytesPerCrossingSquare(),
                            Offset.offset(1.0));
        }
    }
}
