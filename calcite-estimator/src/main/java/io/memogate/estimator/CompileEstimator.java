package io.memogate.estimator;

import io.memogate.estimator.dialect.Dialect;
import io.memogate.estimator.dialect.DialectSettings;
import io.memogate.estimator.planner.MemoryTerms;
import io.memogate.estimator.postgres.PostgresDialect;
import java.util.List;
import java.util.Objects;

/**
 * SQL text to compile-memory estimates for one kind of server, its {@link Dialect} (docs/DESIGN.md, "Data
 * flow of one statement", step 3):
 * <ol>
 *   <li>{@link EstimateCaches} answer a text, or each of its statements, seen before under the same settings
 *   and catalog: by the whole text, by its skeleton (constants and comments left out), or by the statements'
 *   fingerprints;
 *   <li>otherwise the {@link EstimatePipeline} has the dialect's lexer analyse the text (classify each
 *   statement and bound its relations): statements the server does not plan, and those naming at most one
 *   relation, bypass (their verdict is cached like an estimate): no parsing, unless the one relation is a
 *   view or an inlinable SQL function the {@link Catalog} knows;
 *   <li>otherwise the planned query (inside EXPLAIN, CREATE TABLE AS, DECLARE, COPY, PREPARE, ... as the
 *   lexer's classification locates it) is rewritten where Calcite needs it by the dialect's rewriter, parsed
 *   by Calcite with the dialect's parser configuration and turned into query blocks, the catalog's views and
 *   inlinable functions expanded into their queries (and REFRESH MATERIALIZED VIEW estimated as the view's
 *   query);
 *   <li>when that fails, or the statement nests deeper than Calcite's recursive parser safely goes, the blocks
 *   are read off the tokens; statements longer than the lexer's maximum are estimated from their relation
 *   bound alone;
 *   <li>the dialect's planner model, under the session's settings, gives the join searches, its memory model
 *   their bytes.
 * </ol>
 * A DO block is estimated as the largest of the queries its PL/pgSQL body runs (read by the dialect's {@link io.memogate.estimator.lexer.StatementReader}),
 * each estimated as above, and so is a statement's call of a PL/pgSQL or SQL routine the catalog knows
 * ({@link RoutineDefinitions}) when the routine's largest query is larger than the statement's own; such
 * an estimate says {@link CompileEstimate#plannedWhileRunning()}.
 * Thread-safe, and never throws on any text: every failure becomes an estimate whose reason says which
 * path produced it. Settings of another dialect than the estimator's are refused with an
 * IllegalArgumentException: the caller picked the estimator for the wrong server.
 */
public final class CompileEstimator {

    /** Deepest parenthesis nesting handed to Calcite; deeper statements go to the lexical fallback. */
    public static final int DEFAULT_MAX_PARSE_DEPTH = 100;
    public static final int DEFAULT_CACHE_SIZE = 10_000;

    private final Dialect<?> dialect;
    private final EstimateCaches caches;

    /** PostgreSQL's estimator with the default lexer, coefficients, cache and parse depth. */
    public CompileEstimator() {
        this(new PostgresDialect());
    }

    /** The estimator of {@code dialect}, with the default cache and parse depth. */
    public CompileEstimator(Dialect<?> dialect) {
        this(dialect, DEFAULT_CACHE_SIZE, DEFAULT_MAX_PARSE_DEPTH);
    }

    /**
     * @param cacheSize entries each cache holds at most (0: none kept); the cache of texts is bounded by bytes
     * @param maxParseDepth deepest parenthesis nesting handed to Calcite
     */
    public CompileEstimator(Dialect<?> dialect, long cacheSize, int maxParseDepth) {
        this.dialect = Objects.requireNonNull(dialect, "dialect");
        if (cacheSize < 0 || maxParseDepth < 1) {
            throw new IllegalArgumentException("cacheSize must be >= 0 and maxParseDepth >= 1, were "
                    + cacheSize + " and " + maxParseDepth);
        }
        this.caches = new EstimateCaches(dialect.analyzer(), cacheSize,
                estimates -> new EstimatePipeline(dialect, maxParseDepth, estimates));
    }

    /** The server this estimator estimates for. */
    public Dialect<?> dialect() {
        return dialect;
    }

    /** Cache hits and misses and lexical fallbacks so far; cheap, for metrics scrapes. */
    public EstimatorStatistics statistics() {
        return new EstimatorStatistics(caches.hits(), caches.misses(), caches.lexicalFallbacks());
    }

    /**
     * The largest estimate of the text's statements; for an empty text, a bypass saying so. {@code settings}
     * are the session's, of this estimator's dialect; null means the server's defaults.
     */
    public CompileEstimate estimate(String sql, DialectSettings settings) {
        return estimate(sql, settings, PreparedStatementTexts.NONE);
    }

    /** As {@link #estimate(String, DialectSettings)}, finding EXECUTE's statements in {@code prepared}. */
    public CompileEstimate estimate(String sql, DialectSettings settings, PreparedStatementTexts prepared) {
        return estimate(sql, settings, prepared, Catalog.NONE);
    }

    /**
     * As {@link #estimate(String, DialectSettings, PreparedStatementTexts)}, with what {@code catalog}, that of
     * the database the statement runs in, tells: the parameterized index scans its indexes allow, and the
     * queries of the views, inlinable functions and refreshed materialized views the statement names.
     */
    public CompileEstimate estimate(String sql, DialectSettings settings, PreparedStatementTexts prepared,
                                    Catalog catalog) {
        List<CompileEstimate> all = estimateAll(sql, settings, prepared, catalog);
        if (all.isEmpty()) {
            return CompileEstimate.builder("", 0, 0).bypass(true).reason("empty statement: nothing to plan").build();
        }
        CompileEstimate largest = all.get(0);
        // Indexed: a for-each made an iterator for every statement a proxy admits, most of them texts of one.
        for (int i = 1; i < all.size(); i++) {
            CompileEstimate e = all.get(i);
            if (e.estimatedBytes() > largest.estimatedBytes() || largest.bypass() && !e.bypass()) {
                largest = e;
            }
        }
        return all.size() == 1 ? largest : covering(largest, all.size());
    }

    /**
     * The estimate of a text of {@code count} statements whose largest is {@code largest}: the server may hold
     * the other statements' parse trees while it plans that one ({@link MemoryTerms#otherStatements()}), which
     * matters for texts of thousands of statements; such a text takes admission even when every statement of
     * it would bypass.
     */
    private CompileEstimate covering(CompileEstimate largest, int count) {
        String prefix = "largest of " + count + " statements: ";
        MemoryTerms others = MemoryTerms.ZERO.withOtherStatements(count - 1);
        long held = dialect.memory().bytes(others);
        if (largest.bypass() && held < EstimatePipeline.BYPASS_BELOW_BYTES) {
            return largest.covering(count, prefix);
        }
        MemoryTerms terms = largest.bypass() ? others : largest.terms().withOtherStatements(count - 1);
        long bytes = largest.bypass() ? held : saturatedSum(largest.estimatedBytes(), held);
        return largest.toBuilder().bypass(false).estimatedBytes(bytes).terms(terms).statements(count)
                .reason(prefix + (largest.bypass() ? "each bypasses, but the server holds the parse trees of all"
                        : largest.reason()))
                .build();
    }

    private static long saturatedSum(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    /** One estimate per statement with tokens, in order. */
    public List<CompileEstimate> estimateAll(String sql, DialectSettings settings) {
        return estimateAll(sql, settings, PreparedStatementTexts.NONE);
    }

    public List<CompileEstimate> estimateAll(String sql, DialectSettings settings, PreparedStatementTexts prepared) {
        return estimateAll(sql, settings, prepared, Catalog.NONE);
    }

    public List<CompileEstimate> estimateAll(String sql, DialectSettings settings, PreparedStatementTexts prepared,
                                             Catalog catalog) {
        return caches.estimateAll(sql == null ? "" : sql, dialect.settings(settings),
                prepared == null ? PreparedStatementTexts.NONE : prepared, catalog == null ? Catalog.NONE : catalog);
    }

    /** Texts in the cache of texts (for tests: which texts it keeps is a question of memory). */
    long cachedTexts() {
        return caches.cachedTexts();
    }
}
