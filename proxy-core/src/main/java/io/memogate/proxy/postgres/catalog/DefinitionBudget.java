package io.memogate.proxy.postgres.catalog;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How many characters of definitions (views' queries, functions' bodies) one catalog read keeps for a
 * database: a catalog of tens of thousands of generated views should not cost the proxy hundreds of
 * megabytes. The reads come shortest first, so as many as possible are kept; those past the bound are left
 * out (each then counts as one relation) and counted for the log. Not thread-safe: one per read.
 */
final class DefinitionBudget {

    /** Characters kept per database and kind of definition. */
    static final long MAX_CHARS = 8L << 20;

    private static final Logger LOG = LoggerFactory.getLogger(DefinitionBudget.class);
    /** Per database and kind of definition, how many were left out when it was last warned of. */
    private static final Map<String, Integer> WARNED = new ConcurrentHashMap<>();

    /** How one row of a definitions query becomes a definition. */
    @FunctionalInterface
    interface RowReader<T> {
        T read(ResultSet row, String definition) throws SQLException;
    }

    /**
     * The definitions {@code query} returns, shortest first, one a row with its text in column {@code column},
     * as many as one budget keeps. When some are left out the log says how many {@code what} (say "views") of
     * the database were, and {@code consequence}: what the estimates then miss.
     */
    static <T> List<T> read(Connection connection, String query, int column, String what, String consequence,
                            RowReader<T> reader) throws SQLException {
        List<T> kept = new ArrayList<>();
        DefinitionBudget budget = new DefinitionBudget();
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(query)) {
            while (rows.next()) {
                String definition = rows.getString(column);
                if (budget.keeps(definition)) {
                    kept.add(reader.read(rows, definition));
                }
            }
        }
        String database = connection.getCatalog();
        warnOnce(database + "/" + what, budget.leftOut, () -> LOG.warn(
                "{} {} of database {} are over the {} MiB kept of their definitions: {}", budget.leftOut, what,
                database, MAX_CHARS >> 20, consequence));
        return kept;
    }

    private long chars;
    private int leftOut;

    /**
     * Runs {@code warning} when {@code leftOut} differs from what was last warned of {@code key}: the catalog
     * is read again every 5 minutes, and the same warning each time would bury the log.
     */
    static void warnOnce(String key, int leftOut, Runnable warning) {
        Integer before = leftOut > 0 ? WARNED.put(key, leftOut) : WARNED.remove(key);
        if (leftOut > 0 && (before == null || before != leftOut)) {
            warning.run();
        }
    }

    /** Whether {@code definition} is kept; false for a missing one, and for one past the bound (counted). */
    boolean keeps(String definition) {
        if (definition == null) {
            return false;
        }
        if (chars + definition.length() > MAX_CHARS) {
            leftOut++;
            return false;
        }
        chars += definition.length();
        return true;
    }

    /** Definitions left out for the bound. */
    int leftOut() {
        return leftOut;
    }
}
