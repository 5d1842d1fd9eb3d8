package io.memogate.proxy.postgres.catalog;

import io.memogate.estimator.FunctionDefinitions;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;

/**
 * Reads a database's {@link FunctionDefinitions}: the SQL functions PostgreSQL inlines into FROM, as
 * {@code inline_set_returning_function} picks them from {@code pg_proc} (set-returning, {@code LANGUAGE sql},
 * STABLE or IMMUTABLE, not STRICT, not SECURITY DEFINER, no SET clause), with how many arguments a call may
 * pass (defaults, VARIADIC) and their bodies: {@code prosrc},
 * or for a {@code BEGIN ATOMIC} body (PostgreSQL 14+) the statement inside it. Whether the body is one
 * SELECT, the other condition, the estimator decides. System schemas and other sessions' temporary ones are
 * left out, and so are bodies past the {@link DefinitionBudget}, shortest kept first.
 */
public final class FunctionCatalog {

    /** PostgreSQL 14 stores SQL-standard bodies in {@code prosqlbody}, {@code prosrc} then empty. */
    private static final int SQL_BODY_VERSION = 14;

    private static final String QUERY = """
            SELECT proname, pronargs, pronargdefaults, provariadic <> 0, body FROM (
                SELECT p.proname, p.pronargs, p.pronargdefaults, p.provariadic, %s AS body
                FROM pg_catalog.pg_proc p
                JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
                JOIN pg_catalog.pg_language l ON l.oid = p.prolang
                WHERE l.lanname = 'sql' AND p.prokind = 'f' AND p.proretset AND NOT p.proisstrict
                  AND p.provolatile IN ('i', 's') AND NOT p.prosecdef AND p.proconfig IS NULL
                  AND n.nspname NOT IN ('pg_catalog', 'information_schema')
                  AND n.nspname !~ '^pg_(toast_)?temp_') functions
            ORDER BY length(body)""";

    private FunctionCatalog() {
    }

    /** The inlinable functions of the database {@code connection} is connected to. */
    public static FunctionDefinitions read(Connection connection) throws SQLException {
        return FunctionDefinitions.of(DefinitionBudget.read(connection, QUERY.formatted(bodyColumn(connection)), 5,
                "inlinable functions", "each is estimated as a function scan",
                (row, body) -> new FunctionDefinitions.Function(row.getString(1), row.getInt(2), row.getInt(3),
                        row.getBoolean(4), withinAtomic(body))));
    }

    /** The body of {@code pg_proc p}: {@code prosrc}, or from PostgreSQL 14 a {@code BEGIN ATOMIC} body, printed. */
    static String bodyColumn(Connection connection) throws SQLException {
        return connection.getMetaData().getDatabaseMajorVersion() >= SQL_BODY_VERSION
                ? "CASE WHEN p.prosqlbody IS NULL THEN p.prosrc ELSE pg_catalog.pg_get_function_sqlbody(p.oid) END"
                : "p.prosrc";
    }

    /** What is inside {@code BEGIN ATOMIC ... END}, as {@code pg_get_function_sqlbody} prints it; else the body. */
    static String withinAtomic(String body) {
        String text = body.strip();
        String upper = text.toUpperCase(Locale.ROOT);
        if (upper.startsWith("BEGIN ATOMIC") && upper.endsWith("END")) {
            return text.substring("BEGIN ATOMIC".length(), text.length() - "END".length()).strip();
        }
        return text;
    }
}
