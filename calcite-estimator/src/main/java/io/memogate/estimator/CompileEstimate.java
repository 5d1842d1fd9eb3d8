package io.memogate.estimator;

import io.memogate.estimator.lexer.Fingerprint;
import io.memogate.estimator.planner.MemoryTerms;
import java.util.Objects;

/**
 * What the estimator tells the gateway about one statement (or, from
 * {@link CompileEstimator#estimate}, the largest statement of a text). Immutable.
 *
 * @param fingerprint the normalized statement (constants replaced; oversized statements described by length)
 * @param fingerprintHash the cache key's hash of it
 * @param relations the lexer's upper bound of relations named in the statement
 * @param blocks query blocks the planner runs ({@code subquery_planner} calls): 0 when bypassed
 * @param memoPairs join relations the searches build, summed (csg-cmp pairs for dynamic programming)
 * @param estimatedBytes planner memory the statement needs, by the memory model
 * @param parser how the statement was read
 * @param bypass true when the statement needs no admission: not planned, or at most one relation
 * @param reason a short sentence: why bypassed, which fallback, which problem dominated
 * @param largestProblem items of the largest join search, 0 when there is none
 * @param search how the largest problem is searched
 * @param capped true when a count ran out of its budget and was extrapolated
 * @param statements statements the estimate covers (more than 1 only from {@code estimate} on a multi-statement text)
 * @param terms what the memory model weighed to get {@code estimatedBytes} ({@link MemoryTerms#ZERO} when
 *     bypassed), for calibration
 * @param plannedWhileRunning true when the estimated query is planned while the statement runs, after its first
 *     answers: a query of a DO block's body, or of a routine the statement calls. Its permits are then held
 *     until the statement is over.
 */
public record CompileEstimate(
        String fingerprint,
        long fingerprintHash,
        int relations,
        int blocks,
        long memoPairs,
        long estimatedBytes,
        Parser parser,
        boolean bypass,
        String reason,
        int largestProblem,
        Search search,
        boolean capped,
        int statements,
        MemoryTerms terms,
        boolean plannedWhileRunning) {

    /** How the statement's join structure was read. */
    public enum Parser {
        /** Calcite's Babel parser, possibly after token rewrites named in the reason. */
        CALCITE,
        /** The token stream, assuming a star join per block. */
        LEXICAL,
        /** Not read at all (bypassed). */
        NONE
    }

    /** The join search of the largest problem. */
    public enum Search {
        NONE,
        /** {@code standard_join_search}: dynamic programming. */
        DP,
        GEQO
    }

    public CompileEstimate {
        Objects.requireNonNull(fingerprint, "fingerprint");
        Objects.requireNonNull(parser, "parser");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(search, "search");
        Objects.requireNonNull(terms, "terms");
    }

    /** This estimate as covering {@code count} statements, with {@code prefix} before its reason. */
    CompileEstimate covering(int count, String prefix) {
        return new CompileEstimate(fingerprint, fingerprintHash, relations, blocks, memoPairs, estimatedBytes, parser,
                bypass, prefix + reason, largestProblem, search, capped, count, terms, plannedWhileRunning);
    }

    /**
     * This estimate, of a query planned while {@code statement} runs, as that statement's: with its
     * fingerprint, which identifies it in the queue and the logs, and {@code prefix} before the reason, which
     * names the query's routine.
     */
    CompileEstimate plannedWhileRunning(String prefix, Fingerprint statement) {
        return new CompileEstimate(statement.text(), statement.hash(), relations, blocks, memoPairs, estimatedBytes,
                parser, bypass, prefix + reason, largestProblem, search, capped, statements, terms, true);
    }
}
