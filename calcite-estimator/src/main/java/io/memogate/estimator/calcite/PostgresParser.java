package io.memogate.estimator.calcite;

import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.babel.SqlBabelParserImpl;
import org.apache.calcite.sql.validate.SqlConformanceEnum;

/**
 * Calcite's Babel parser set up to read PostgreSQL: double-quoted identifiers kept as written, unquoted
 * ones folded to lower case (as PostgreSQL folds them, so {@code A.x} and {@code a.x} name one alias).
 * Thread-safe: the config is immutable and each call creates its own parser.
 *
 * <p>Babel 1.42 does not read every PostgreSQL construct; {@link PostgresRewriter} rewrites the common ones
 * first.
 */
public final class PostgresParser {

    static final SqlParser.Config CONFIG = SqlParser.config()
            .withParserFactory(SqlBabelParserImpl.FACTORY)
            .withConformance(SqlConformanceEnum.BABEL)
            .withQuoting(Quoting.DOUBLE_QUOTE)
            .withUnquotedCasing(Casing.TO_LOWER)
            .withQuotedCasing(Casing.UNCHANGED)
            .withCaseSensitive(true);

    /** One statement (no trailing semicolon needed). */
    public SqlNode parse(String statement) throws SqlParseException {
        return SqlParser.create(statement, CONFIG).parseStmt();
    }
}
