package io.memogate.estimator;

/**
 * Counts since the estimator was built, for metrics: they say whether the cache is sized for the
 * workload and how often the estimates rest on the coarser lexical reading. Monotonic, so a monitoring
 * system can take rates.
 *
 * @param cacheHits statements answered from the caches (of texts, or of fingerprints); bypassed
 *     statements count too, their verdict is cached like an estimate
 * @param cacheMisses statements that had to be analysed and estimated or bypassed (each then cached)
 * @param lexicalFallbacks estimates computed from the token stream ({@link CompileEstimate.Parser#LEXICAL})
 *     because Calcite could not read the statement, it nested too deep, or it was over the lexer's
 *     maximum; counted once per estimate computed, not again for each cache hit on it
 */
public record EstimatorStatistics(long cacheHits, long cacheMisses, long lexicalFallbacks) {

    /** These counts and {@code other}'s together (an estimator in force after another keeps the retired one's). */
    public EstimatorStatistics plus(EstimatorStatistics other) {
        return new EstimatorStatistics(cacheHits + other.cacheHits, cacheMisses + other.cacheMisses,
                lexicalFallbacks + other.lexicalFallbacks);
    }
}
