package io.memogate.estimator.mysql;

import io.memogate.estimator.Catalog;
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
 * MySQL (8) and MariaDB (10.6 to 11): the shared lexer under {@link MySqlLexicalRules}, SET read by
 * {@link SetAssignments}; Calcite's Babel parser after the {@link MySqlRewriter}, chosen over a parser made for
 * MySQL by measurement (bench/RESULTS.md, "MySQL statements read": the rewriter and Babel read every statement
 * of the corpus, and the join structure the shared builder reads from Calcite's tree is kept); the
 * {@link MySqlPlannerModel} under the session's {@link OptimizerSettings}; and memory and time with
 * {@link MySqlCoefficients}. Immutable and thread-safe.
 */
public final class MySqlDialect implements Dialect<OptimizerSettings> {

    /**
     * Babel reading what the rewriter writes: backtick identifiers, every name folded to lower case (MySQL's
     * column names are case-insensitive, and so are table aliases where lower_case_table_names is set), MySQL's
     * conformance ({@code LIMIT a, b}, {@code !=}, ...).
     */
    private static final SqlParser.Config PARSER_CONFIG = SqlParser.config()
            .withParserFactory(SqlBabelParserImpl.FACTORY)
            .withConformance(SqlConformanceEnum.BABEL)
            .withQuoting(Quoting.BACK_TICK)
            .withUnquotedCasing(Casing.TO_LOWER)
            .withQuotedCasing(Casing.TO_LOWER)
            .withCaseSensitive(false);

    /** Longest statement naming one table that needs no estimate: 16 KiB, an IN list of about 3,000 values. */
    static final int ONE_TABLE_BYPASS_CHARS = 16 * 1024;

    private final LexicalAnalyzer analyzer;
    private final MySqlCoefficients coefficients;
    private final MemoryModel memory;
    private final OptimizerSettings defaults;
    private final MySqlRewriter rewriter = new MySqlRewriter();
    private final long pricedBudget;

    /** MariaDB's defaults, the default coefficients. */
    public MySqlDialect() {
        this(MySqlCoefficients.DEFAULTS, OptimizerSettings.MARIADB_DEFAULTS);
    }

    public MySqlDialect(MySqlCoefficients coefficients, OptimizerSettings defaults) {
        this(coefficients, defaults, MySqlPlannerModel.PRICED_BUDGET);
    }

    /** @param pricedBudget extensions a replayed search prices before it samples the rest */
    MySqlDialect(MySqlCoefficients coefficients, OptimizerSettings defaults, long pricedBudget) {
        this.pricedBudget = pricedBudget;
        this.analyzer = MySqlLexicalRules.analyzer();
        this.coefficients = Objects.requireNonNull(coefficients, "coefficients");
        this.memory = new MemoryModel(coefficients);
        this.defaults = Objects.requireNonNull(defaults, "defaults");
    }

    @Override
    public String name() {
        return "MySQL";
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
    public MySqlRewriter rewriter() {
        return rewriter;
    }

    @Override
    public Class<OptimizerSettings> settingsType() {
        return OptimizerSettings.class;
    }

    @Override
    public OptimizerSettings defaultSettings() {
        return defaults;
    }

    @Override
    public MySqlPlannerModel planner(OptimizerSettings settings, IndexedColumns indexes) {
        return new MySqlPlannerModel(settings, coefficients);
    }

    /** The planner knowing the catalog's table statistics, which decide how much of the search is cut. */
    @Override
    public MySqlPlannerModel planner(OptimizerSettings settings, Catalog catalog) {
        return new MySqlPlannerModel(settings, coefficients, catalog.statistics(), pricedBudget);
    }

    @Override
    public MemoryModel memory() {
        return memory;
    }

    /** A long IN list over one table costs MySQL memory by its values. */
    @Override
    public boolean bypassesOneRelation(int chars) {
        return chars < ONE_TABLE_BYPASS_CHARS;
    }

    /** About two tokens in five characters, as an IN list of numbers has. */
    @Override
    public int tokensOfOversized(int chars) {
        return (int) Math.min(Integer.MAX_VALUE, 2L * chars / 5);
    }
}
