package io.memogate.estimator.dialect;

import io.memogate.estimator.Catalog;
import io.memogate.estimator.lexer.LexicalAnalyzer;
import io.memogate.estimator.planner.IndexedColumns;
import io.memogate.estimator.planner.MemoryModel;
import io.memogate.estimator.planner.PartitionedTables;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;

/**
 * What the estimator must know of one kind of server to estimate its statements: how its text is lexed,
 * how Calcite is set up to parse it and what must be rewritten first, how its planner splits and searches
 * joins under which settings, and what that costs in bytes (its coefficients). Everything else of the estimator is shared: the
 * caches, the query blocks built from Calcite's tree or read off the tokens, the join graphs and their
 * counts ({@code graph}). The caller picks the dialect of the server a statement goes to
 * ({@link io.memogate.estimator.CompileEstimator#CompileEstimator(Dialect, long, int)}).
 *
 * <p>Implementations are immutable and thread-safe: one estimator serves every session's thread.
 *
 * @param <S> the settings a session can change that the planner model reads
 */
public interface Dialect<S extends DialectSettings> {

    /** The server's name as users know it, for messages ("PostgreSQL"). */
    String name();

    /**
     * The analyzer of the server's text: the shared lexer under the server's {@link
     * io.memogate.estimator.lexer.LexicalRules}, with its {@link io.memogate.estimator.lexer.StatementReader}
     * for setting changes and code blocks; statements, fingerprints, relation bounds, statement kinds. Its
     * longest statement read whole is the estimator's too.
     */
    LexicalAnalyzer analyzer();

    /** Calcite's parser set up for the server's quoting and case folding; it reads what {@link #rewriter()} wrote. */
    SqlParser.Config parserConfig();

    /** Token rewrites that make the server's statements readable by the parser, keeping their join structure. */
    Rewriter rewriter();

    /** The class of this dialect's settings, to refuse another dialect's. */
    Class<S> settingsType();

    /** The settings a session has before it changes any: the server's defaults. */
    S defaultSettings();

    /** The server's planner under {@code settings}, knowing the catalog's {@code indexes}. */
    PlannerModel planner(S settings, IndexedColumns indexes);

    /**
     * The server's planner under {@code settings}, knowing the catalog's {@code indexes} and partitioned tables;
     * by default the partitions are not modelled.
     */
    default PlannerModel planner(S settings, IndexedColumns indexes, PartitionedTables partitions) {
        return planner(settings, indexes);
    }

    /**
     * The server's planner under {@code settings}, knowing what the {@code catalog} says; by default its indexes
     * and partitioned tables.
     */
    default PlannerModel planner(S settings, Catalog catalog) {
        return planner(settings, catalog.indexes(), catalog.partitions());
    }

    /** Bytes for the planner's work, with this server's coefficients. */
    MemoryModel memory();

    /**
     * Whether a statement naming at most one relation, {@code chars} long, needs no estimate: true where the
     * server's compile memory grows with joins only (PostgreSQL), false for long statements where it grows with
     * the statement's size too (MySQL: about 280 bytes per value of an IN list).
     */
    default boolean bypassesOneRelation(int chars) {
        return true;
    }

    /**
     * Tokens to count for a statement longer than the lexer reads whole, from its length: 0 where the
     * statement's size is not what its compile memory grows with.
     */
    default int tokensOfOversized(int chars) {
        return 0;
    }

    /** One statement, already rewritten, as Calcite reads it with {@link #parserConfig()}. */
    default SqlNode parse(String statement) throws SqlParseException {
        return SqlParser.create(statement, parserConfig()).parseStmt();
    }

    /**
     * {@code settings} as this dialect's; the defaults for null. Another dialect's settings are a caller's
     * mistake (an estimator picked for the wrong server) and are refused, not silently read as defaults.
     */
    default S settings(DialectSettings settings) {
        if (settings == null) {
            return defaultSettings();
        }
        if (!settingsType().isInstance(settings)) {
            throw new IllegalArgumentException("a " + name() + " estimator takes " + settingsType().getSimpleName()
                    + ", was " + settings.getClass().getSimpleName());
        }
        return settingsType().cast(settings);
    }
}
