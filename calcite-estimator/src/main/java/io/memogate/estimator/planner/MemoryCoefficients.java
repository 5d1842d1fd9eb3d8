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
 */
public record MemoryCoefficients(
        double fixedBytes, double bytesPerJoinPair, double bytesPerFastStartJoinPair, double bytesPerRelation,
        double bytesPerGeqoGene) {

    /** The names of the coefficients, in the order of {@link #toArray()} and {@link MemoryTerms#toArray()}. */
    public static final List<String> NAMES = List.of(
            "fixedBytes", "bytesPerJoinPair", "bytesPerFastStartJoinPair", "bytesPerRelation", "bytesPerGeqoGene");

    public static final MemoryCoefficients DEFAULTS =
            new MemoryCoefficients(50.0 * 1024, 2.294 * 1024, 25.0 * 1024, 0, 16);

    public MemoryCoefficients {
        check("fixedBytes", fixedBytes);
        check("bytesPerJoinPair", bytesPerJoinPair);
        check("bytesPerFastStartJoinPair", bytesPerFastStartJoinPair);
        check("bytesPerRelation", bytesPerRelation);
        check("bytesPerGeqoGene", bytesPerGeqoGene);
    }

    /** From a vector in the order of {@link #NAMES}. */
    public static MemoryCoefficients of(double[] values) {
        if (values.length != NAMES.size()) {
            throw new IllegalArgumentException("expected " + NAMES.size() + " coefficients, got " + values.length);
        }
        return new MemoryCoefficients(values[0], values[1], values[2], values[3], values[4]);
    }

    public double[] toArray() {
        return new double[] {fixedBytes, bytesPerJoinPair, bytesPerFastStartJoinPair, bytesPerRelation,
            bytesPerGeqoGene};
    }

    private static void check(String field, double value) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(field + " must be finite and >= 0, was " + value);
        }
    }
}
