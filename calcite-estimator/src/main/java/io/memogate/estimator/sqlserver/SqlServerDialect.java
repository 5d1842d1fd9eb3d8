package io.memogate.estimator.sqlserver;

import io.memogate.estimator.dialect.Dialect;
import io.memogate.estimator.lexer.LexicalAnalyzer;
import io.memogate.estimator.planner.IndexedColumns;
import io.memogate.estimator.planner.MemoryModel;
import java.util.Objects;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.babel.SqlBabelParserImpl;
import org.apache.calcite.sql.validate.SqlConformanceEnum;

/**
 * SQL Server (T-SQL): the shared lexer under {@link TsqlLexicalRules} (bracketed names, {@code @} and {@code #}
 * names, nested comments, statements that need no separator); Calcite's Babel parser after the
 * {@link TsqlRewriter}, chosen over JSqlParser by measurement (bench/RESULTS.md, "T-SQL statements read"); the
 * {@link SqlServerPlannerModel}'s Cascades searches bounded by a task budget; memory with
 * {@link SqlServerCoefficients}. Immutable and thread-safe.
 */
public final class SqlServerDialect implements Dialect<SqlServerSettings> {

    /**
     * Babel reading what the rewriter writes: double-quoted names, every name folded to lower case (SQL Server's
     * default collations compare names without case), CROSS and OUTER APPLY, OFFSET ... FETCH.
     */
    private static final SqlParser.Config PARSER_CONFIG = SqlParser.config()
            .withParserFactory(SqlBabelParserImpl.FACTORY)
            .withConformance(SqlConformanceEnum.BABEL)
            .withQuoting(Quoting.DOUBLE_QUOTE)
            .withUnquotedCasing(Casing.TO_LOWER)
            .withQuotedCasing(Casing.TO_LOWER)
            .withCaseSensitive(false);

    /** Longest statement naming one table that needs no estimate: 16 KiB, an IN list of about 3,000 values. */
    static final int ONE_TABLE_BYPASS_CHARS = 16 * 1024;

    private final LexicalAnalyzer analyzer = TsqlLexicalRules.analyzer();
    private final TsqlRewriter rewriter = new TsqlRewriter();
    private final SqlServerCoefficients coefficients;
    private final MemoryModel memory;

    /** The default coefficients (from published showplans, not measured here). */
    public SqlServerDialect() {
        this(SqlServerCoefficients.DEFAULTS);
    }

    public SqlServerDialect(SqlServerCoefficients coefficients) {
        this.coefficients = Objects.requireNonNull(coefficients, "coefficients");
        this.memory = new MemoryModel(coefficients);
    }

    @Override
    public String name() {
        return "SQL Server";
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
    public TsqlRewriter rewriter() {
        return rewriter;
    }

    @Override
    public Class<SqlServerSettings> settingsType() {
        return SqlServerSettings.class;
    }

    @Override
    public SqlServerSettings defaultSettings() {
        return SqlServerSettings.DEFAULTS;
    }

    @Override
    public SqlServerPlannerModel planner(SqlServerSettings settings, IndexedColumns indexes) {
        return new SqlServerPlannerModel(coefficients);
    }

    @Override
    public MemoryModel memory() {
        return memory;
    }

    /** A long IN list over one table costs SQL Server memory by its values. */
    @Override
    public boolean bypassesOneRelation(int chars) {
        return chars < ONE_TABLE_BYPASS_CHARS;
    }

    /** Whether Calcite reads {@code statement}, already rewritten. */
    boolean parses(String statement) {
        try {
            parse(statement);
            return true;
        } catch (Exception | StackOverflowError e) {
            return false;
        }
    }

    /** About two tokens in five characters, as an IN list of numbers has. */
    @Override
    public int tokensOfOversized(int chars) {
        return (int) Math.min(Integer.MAX_VALUE, 2L * chars / 5);
    }
}
