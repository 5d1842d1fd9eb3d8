package io.memogate.proxy.catalog;

import io.memogate.estimator.ViewDefinitions;
import java.sql.Array;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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

    private static final Logger LOG = LoggerFactory.getLogger(ViewCatalog.class);

    private ViewCatalog() {
    }

    /** The views of the database {@code connection} is connected to. */
    public static ViewDefinitions read(Connection connection) throws SQLException {
        List<ViewDefinitions.View> views = new ArrayList<>();
        DefinitionBudget budget = new DefinitionBudget();
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(QUERY)) {
            while (rows.next()) {
                String definition = rows.getString(2);
                if (!budget.keeps(definition)) {
                    continue;
                }
                views.add(new ViewDefinitions.View(rows.getString(5), rows.getString(1), definition,
                        securityBarrier(rows.getArray(3)), "m".equals(rows.getString(4))));
            }
        }
        if (budget.leftOut() > 0) {
            LOG.warn("{} views of database {} are over the {} MiB kept of view definitions: each is estimated as one"
                    + " relation", budget.leftOut(), connection.getCatalog(), DefinitionBudget.MAX_CHARS >> 20);
        }
        return ViewDefinitions.of(views);
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
