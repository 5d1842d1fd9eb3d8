package io.memogate.proxy.postgres.catalog;

import io.memogate.estimator.ViewDefinitions;
import java.sql.Array;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;

/**
 * Reads a database's {@link ViewDefinitions}: each view's and materialized view's query as
 * {@code pg_get_viewdef} prints it, its schema, and whether a view is a security barrier. System schemas and
 * other sessions' temporary ones are left out (one session's temporary view is no one else's), and so are
 * definitions past the {@link DefinitionBudget} (each such view stays one relation; the log says how many).
 */
public final class ViewCatalog {

    static final String QUERY = """
            SELECT relname, definition, reloptions, relkind, nspname FROM (
                SELECT c.relname, pg_catalog.pg_get_viewdef(c.oid) AS definition, c.reloptions, c.relkind, n.nspname
                FROM pg_catalog.pg_class c
                JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
                WHERE c.relkind IN ('v', 'm')
                  AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
                  AND n.nspname !~ '^pg_(toast_)?temp_') views
            ORDER BY length(definition), nspname, relname""";

    private ViewCatalog() {
    }

    /** The views of the database {@code connection} is connected to. */
    public static ViewDefinitions read(Connection connection) throws SQLException {
        return ViewDefinitions.of(DefinitionBudget.read(connection, QUERY, 2, "views",
                "each is estimated as one relation", (row, definition) -> new ViewDefinitions.View(row.getString(5),
                        row.getString(1), definition, securityBarrier(row.getArray(3)), "m".equals(row.getString(4)))));
    }

    /** Whether {@code reloptions} holds {@code security_barrier} set to a value PostgreSQL reads as true. */
    static boolean securityBarrier(Array reloptions) throws SQLException {
        if (reloptions == null) {
            return false;
        }
        for (Object option : (Object[]) reloptions.getArray()) {
            String text = String.valueOf(option);
            int eq = text.indexOf('=');
            if (eq > 0 && text.substring(0, eq).equals("security_barrier") && isTrue(text.substring(eq + 1))) {
                return true;
            }
        }
        return false;
    }

    /** PostgreSQL's {@code parse_bool}, for the values a stored option can hold. */
    static boolean isTrue(String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "true", "t", "on", "yes", "y", "1" -> true;
            default -> false;
        };
    }
}
