package io.memogate.estimator.planner;

import java.util.List;

/**
 * The coefficients of {@link MemoryModel}, in bytes. The defaults are fitted to PostgreSQL 17.5's
 * {@code EXPLAIN (SUMMARY, MEMORY)} "used" figures for synthetic chain, cycle, star and clique joins of
 * 4 to 16 empty tables (docs/DESIGN.md, "Why it matters"); {@code memogate calibrate} fits them to a
 * given server and schema.
 *
 * <p>Default fit: weighted least squares of {@code planner_used_kB} on {@code ccp_pairs} over all 23
 * rows, each weighted by 1/measured so that relative errors count alike (plain least squares is ruled
 * by the 5 GB clique and misses the 67 kB chain 45-fold): {@code 50.0 kB + 2.294 kB per pair},
 * predicted/measured between 0.83 (clique of 4) and 1.09 (star of 4), 0.92-1.08 for the 15 rows above
 * 1 MB, root mean square of the log ratio 0.069. Adding a term per relation gave
 * {@code 30.4 kB + 2.247 kB per pair + 4.9 kB per relation} and an RMS log ratio of 0.066: it does
 * not earn its place on this data, so its default is 0; it stays so that a calibration on real tables
 * (whose relations carry index paths and statistics) can give it one.
 *
 * <p>{@code bytesPerExtraJoinClause} is fitted to PostgreSQL 18 with tables that hold data (2,000 rows
 * each, analyzed, with primary keys), planned with the collapse limits and geqo_threshold at 20 so
 * that every search is dynamic programming: cliques of 5 to 10 tables joined by
 * {@code ti.cj = tj.ci}, a column pair and so an equivalence class per edge, used 0.57, 2.59, 11.98,
 * 53.96, 237.3 and 1019.9 MB (MB = 2^20 bytes) for 90 to 28,501 pairs and 180 to 266,744 extra
 * clauses ({@code n(n-1)3^(n-2)/2} crossings less the pairs). Weighted least squares on relative
 * error (each row weighted by 1/measured, as above) of {@code used - 50 kB - 3.4 kB * pairs} on the
 * extra clauses, 3.4 kB per pair being the same server's figure for tree-shaped and cyclic joins,
 * gives {@code 2.279 kB per extra clause}: predicted/measured 1.31, 1.19, 1.04, 0.90, 0.78, 0.67 from
 * 5 to 10 tables, root mean square of the log ratio 0.235. Within 2x, but the trend is plain: the
 * memory grows about 4.4-fold per table where the extra clauses grow {@code 3n/(n-2)}-fold, so larger
 * cliques come out lower still. (The default {@code bytesPerJoinPair} is still the PostgreSQL 17
 * empty-table figure, which moves these ratios to 1.14-0.65. The empty tables of that data show no
 * growth with the clauses, all their merge-join paths costing alike, so this term overestimates them.)
 *
 * @param fixedBytes what planning any statement costs (the floor of small queries)
 * @param bytesPerJoinPair one join relation with its paths: one csg-cmp pair of a DP search
 * @param bytesPerFastStartJoinPair the same in a search planned for its first rows (a LIMIT, FETCH
 *     FIRST or cursor gives PostgreSQL a tuple fraction below 1, and {@code add_path} then also keeps
 *     every path that is cheaper to start, which on tables with data and indexes multiplies the paths
 *     per join relation). The default is fitted on the demo warehouse (see below); empty tables show no
 *     such growth, since all their paths cost alike
 * @param bytesPerRelation per item of a join search problem
 * @param bytesPerGeqoGene GEQO's pool: per chromosome (pool member) and relation. The default, 16, is
 *     a rough figure from the allocations in geqo_pool.c ({@code (relations + 1) * sizeof(Gene)} per
 *     chromosome, rounded up to a power of two with a chunk header, plus the pool array) and has not
 *     been measured; calibrate it where GEQO matters
 * @param bytesPerExtraJoinClause per join clause linking the two sides of a join relation beyond the
 *     first ({@link MemoryTerms#extraJoinClauses()}): each is one more merge-join ordering and pathkey
 *     PostgreSQL tries and keeps paths for. The default is fitted on cliques with data (see above)
 */
public record MemoryCoefficients(
        double fixedBytes, double bytesPerJoinPair, double bytesPerFastStartJoinPair, double bytesPerRelation,
        double bytesPerGeqoGene, double bytesPerExtraJoinClause) {

    /** The names of the coefficients, in the order of {@link #toArray()} and {@link MemoryTerms#toArray()}. */
    public static final List<String> NAMES = List.of(
            "fixedBytes", "bytesPerJoinPair", "bytesPerFastStartJoinPair", "bytesPerRelation", "bytesPerGeqoGene",
            "bytesPerExtraJoinClause");

    public static final MemoryCoefficients DEFAULTS =
            new MemoryCoefficients(50.0 * 1024, 2.294 * 1024, 25.0 * 1024, 0, 16, 2.279 * 1024);

    public MemoryCoefficients {
        check("fixedBytes", fixedBytes);
        check("bytesPerJoinPair", bytesPerJoinPair);
        check("bytesPerFastStartJoinPair", bytesPerFastStartJoinPair);
        check("bytesPerRelation", bytesPerRelation);
        check("bytesPerGeqoGene", bytesPerGeqoGene);
        check("bytesPerExtraJoinClause", bytesPerExtraJoinClause);
    }

    /** From a vector in the order of {@link #NAMES}. */
    public static MemoryCoefficients of(double[] values) {
        if (values.length != NAMES.size()) {
            throw new IllegalArgumentException("expected " + NAMES.size() + " coefficients, got " + values.length);
        }
        return new MemoryCoefficients(values[0], values[1], values[2], values[3], values[4], values[5]);
    }

    public double[] toArray() {
        return new double[] {fixedBytes, bytesPerJoinPair, bytesPerFastStartJoinPair, bytesPerRelation,
            bytesPerGeqoGene, bytesPerExtraJoinClause};
    }

    private static void check(String field, double value) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(field + " must be finite and >= 0, was " + value);
        }
    }
}
