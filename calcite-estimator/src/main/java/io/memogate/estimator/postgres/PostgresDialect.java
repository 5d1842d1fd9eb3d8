package io.memogate.estimator.postgres;

import io.memogate.estimator.dialect.Dialect;
import io.memogate.estimator.graph.CsgCmpCounter;
import io.memogate.estimator.lexer.LexicalAnalyzer;
import io.memogate.estimator.planner.IndexedColumns;
import io.memogate.estimator.planner.PartitionedTables;
import io.memogate.estimator.planner.MemoryModel;
import java.util.Objects;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.babel.SqlBabelParserImpl;
import org.apache.calcite.sql.validate.SqlConformanceEnum;

/**
 * PostgreSQL (17 and 18): the shared lexer under {@link PostgresLexicalRules}, with SET, RESET, set_config and
 * DO blocks read by PostgreSQL's own readers; Calcite's Babel parser after the {@link PostgresRewriter}; the
 * {@link PostgresPlannerModel} under the session's {@link PlannerSettings} (the GUCs join_collapse_limit,
 * from_collapse_limit, geqo...); and the memory model with {@link MemoryCoefficients} fitted to PostgreSQL
 * ({@code memogate calibrate} fits a server's own).
 * Immutable and thread-safe.
 */
public final class PostgresDialect implements Dialect<PlannerSettings> {

    /**
     * Babel set up to read PostgreSQL: double-quoted identifiers kept as written, unquoted ones folded to
     * lower case (as PostgreSQL folds them, so {@code A.x} and {@code a.x} name one alias). Babel 1.42 does
     * not read every PostgreSQL construct; {@link PostgresRewriter} rewrites the common ones first.
     */
    private static final SqlParser.Config PARSER_CONFIG = SqlParser.config()
            .withParserFactory(SqlBabelParserImpl.FACTORY)
            .withConformance(SqlConformanceEnum.BABEL)
            .withQuoting(Quoting.DOUBLE_QUOTE)
            .withUnquotedCasing(Casing.TO_LOWER)
            .withQuotedCasing(Casing.UNCHANGED)
            .withCaseSensitive(true);

    private final LexicalAnalyzer analyzer;
    private final MemoryModel memory;
    private final PostgresRewriter rewriter = new PostgresRewriter();
    /** Immutable and thread-safe: one for every count. */
    private final CsgCmpCounter counter = new CsgCmpCounter();

    /** The default lexer and coefficients ({@link MemoryCoefficients#DEFAULTS}). */
    public PostgresDialect() {
        this(MemoryCoefficients.DEFAULTS);
    }

    /** The default lexer, and {@code coefficients} (a calibration's) for the memory model. */
    public PostgresDialect(MemoryCoefficients coefficients) {
        this(PostgresLexicalRules.analyzer(), new MemoryModel(Objects.requireNonNull(coefficients, "coefficients")));
    }

    public PostgresDialect(LexicalAnalyzer analyzer, MemoryModel memory) {
        this.analyzer = Objects.requireNonNull(analyzer, "analyzer");
        this.memory = Objects.requireNonNull(memory, "memory");
    }

    @Override
    public String name() {
        return "PostgreSQL";
    }

    @Override
    public LexicalAnalyzer analyzer() {
        return analyzer;
    }

    @Override
    public SqlParser.Config parserConfig() {
        return PARSER_CONFIG;
    }

    @Override
    public PostgresRewriter rewriter() {
        return rewriter;
    }

    @Override
    public Class<PlannerSettings> settingsType() {
        return PlannerSettings.class;
    }

    @Override
    public PlannerSettings defaultSettings() {
        return PlannerSettings.DEFAULTS;
    }

    @Override
    public PostgresPlannerModel planner(PlannerSettings settings, IndexedColumns indexes) {
        return new PostgresPlannerModel(settings, counter, indexes);
    }

    @Override
    public PostgresPlannerModel planner(PlannerSettings settings, IndexedColumns indexes, PartitionedTables partitions) {
        return new PostgresPlannerModel(settings, counter, indexes, partitions);
    }

    @Override
    public MemoryModel memory() {
        return memory;
    }
}
