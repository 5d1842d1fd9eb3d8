package io.memogate.estimator;

import io.memogate.estimator.lexer.Fingerprint;
import io.memogate.estimator.lexer.StatementAnalysis;
import io.memogate.estimator.planner.MemoryTerms;
import java.util.Objects;

/**
 * What the estimator tells the gateway about one statement (or, from
 * {@link CompileEstimator#estimate}, the largest statement of a text). Immutable. Build one with
 * {@link #builder}, which names each part, rather than with the canonical constructor's fifteen positions.
 *
 * @param fingerprint the normalized statement (constants replaced; oversized statements described by length)
 * @param fingerprintHash the cache key's hash of it
 * @param relations the lexer's upper bound of relations named in the statement
 * @param blocks query blocks the planner runs ({@code subquery_planner} calls) and set-operation branches it
 *     plans (pulled up into an append relation when they are UNION ALL's): 0 when bypassed
 * @param memoPairs join relations the searches build, summed (csg-cmp pairs for dynamic programming)
 * @param estimatedBytes planner memory the statement needs, by the memory model
 * @param parser how the statement was read
 * @param bypass true when the statement needs no admission: not planned, or at most one relation and a text
 *     small enough that planning it costs little (its size below the pipeline's bypass limit)
 * @param reason a short sentence: why bypassed, which fallback, which problem dominated
 * @param largestProblem items of the largest join search, 0 when there is none
 * @param search how the largest problem is searched
 * @param capped true when a count ran out of its budget and was extrapolated
 * @param statements statements the estimate covers (more than 1 only from {@code estimate} on a multi-statement text)
 * @param terms what the memory model weighed to get {@code estimatedBytes} ({@link MemoryTerms#ZERO} when
 *     bypassed), for calibration
 * @param searchSeconds the server's CPU time its join searches are predicted to take, where the dialect models
 *     time (MySQL, MariaDB); 0 otherwise. A long search takes a gateway even when its memory is small.
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
        double searchSeconds,
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
        GEQO,
        /** MySQL's and MariaDB's greedy search bounded by optimizer_search_depth. */
        GREEDY,
        /** SQL Server's Cascades search bounded by its task budget. */
        CASCADES
    }

    public CompileEstimate {
        Objects.requireNonNull(fingerprint, "fingerprint");
        Objects.requireNonNull(parser, "parser");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(search, "search");
        Objects.requireNonNull(terms, "terms");
    }

    /**
     * An estimate of the statement with this fingerprint, hash and relation bound, to be completed: as built
     * without more, nothing is planned (no blocks, pairs or bytes, not read, not capped), it covers one
     * statement, and its reason is empty.
     */
    public static Builder builder(String fingerprint, long fingerprintHash, int relations) {
        return new Builder(fingerprint, fingerprintHash, relations);
    }

    /** {@code statement} needs no admission, for {@code reason}. */
    static CompileEstimate bypass(StatementAnalysis statement, String reason) {
        return builder(statement.fingerprint().text(), statement.fingerprint().hash(), statement.relations())
                .bypass(true).reason(reason).build();
    }

    /** A builder holding this estimate, to change some of it. */
    public Builder toBuilder() {
        return new Builder(fingerprint, fingerprintHash, relations)
                .blocks(blocks).memoPairs(memoPairs).estimatedBytes(estimatedBytes).parser(parser).bypass(bypass)
                .reason(reason).largestProblem(largestProblem).search(search).capped(capped).statements(statements)
                .terms(terms).searchSeconds(searchSeconds).plannedWhileRunning(plannedWhileRunning);
    }

    /** This estimate as covering {@code count} statements, with {@code prefix} before its reason. */
    CompileEstimate covering(int count, String prefix) {
        return toBuilder().statements(count).reason(prefix + reason).build();
    }

    /**
     * This estimate, of a query planned while {@code statement} runs, as that statement's: with its
     * fingerprint, which identifies it in the queue and the logs, and {@code prefix} before the reason, which
     * names the query's routine.
     */
    CompileEstimate plannedWhileRunning(String prefix, Fingerprint statement) {
        return toBuilder().fingerprint(statement.text(), statement.hash()).reason(prefix + reason)
                .plannedWhileRunning(true).build();
    }

    /**
     * Names each part of an estimate where it is set: fifteen positional arguments of alike types are too easy
     * to swap. One builder builds one estimate at a time; not thread-safe.
     */
    public static final class Builder {
        private String fingerprint;
        private long fingerprintHash;
        private final int relations;
        private int blocks;
        private long memoPairs;
        private long estimatedBytes;
        private Parser parser = Parser.NONE;
        private boolean bypass;
        private String reason = "";
        private int largestProblem;
        private Search search = Search.NONE;
        private boolean capped;
        private int statements = 1;
        private MemoryTerms terms = MemoryTerms.ZERO;
        private double searchSeconds;
        private boolean plannedWhileRunning;

        private Builder(String fingerprint, long fingerprintHash, int relations) {
            this.fingerprint = fingerprint;
            this.fingerprintHash = fingerprintHash;
            this.relations = relations;
        }

        public Builder fingerprint(String text, long hash) {
            this.fingerprint = text;
            this.fingerprintHash = hash;
            return this;
        }

        public Builder blocks(int blocks) {
            this.blocks = blocks;
            return this;
        }

        public Builder memoPairs(long memoPairs) {
            this.memoPairs = memoPairs;
            return this;
        }

        public Builder estimatedBytes(long estimatedBytes) {
            this.estimatedBytes = estimatedBytes;
            return this;
        }

        public Builder parser(Parser parser) {
            this.parser = parser;
            return this;
        }

        public Builder bypass(boolean bypass) {
            this.bypass = bypass;
            return this;
        }

        public Builder reason(String reason) {
            this.reason = reason;
            return this;
        }

        public Builder largestProblem(int largestProblem) {
            this.largestProblem = largestProblem;
            return this;
        }

        public Builder search(Search search) {
            this.search = search;
            return this;
        }

        public Builder capped(boolean capped) {
            this.capped = capped;
            return this;
        }

        public Builder statements(int statements) {
            this.statements = statements;
            return this;
        }

        public Builder terms(MemoryTerms terms) {
            this.terms = terms;
            return this;
        }

        public Builder searchSeconds(double searchSeconds) {
            this.searchSeconds = searchSeconds;
            return this;
        }

        public Builder plannedWhileRunning(boolean plannedWhileRunning) {
            this.plannedWhileRunning = plannedWhileRunning;
            return this;
        }

        public CompileEstimate build() {
            return new CompileEstimate(fingerprint, fingerprintHash, relations, blocks, memoPairs, estimatedBytes,
                    parser, bypass, reason, largestProblem, search, capped, statements, terms, searchSeconds,
                    plannedWhileRunning);
        }
    }
}
