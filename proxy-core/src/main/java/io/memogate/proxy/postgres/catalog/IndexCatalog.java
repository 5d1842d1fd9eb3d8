package io.memogate.proxy.postgres.catalog;

import io.memogate.estimator.planner.IndexedColumns;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Reads a database's {@link IndexedColumns} from {@code pg_index}: per table, the first column of each
 * valid, non-partial index on a plain column (an expression index has no first column to join on, and a
 * partial one serves only the statements its predicate covers). System schemas are left out; temporary
 * tables of the reading session are included. One catalog query, a few milliseconds on a large schema.
 */
public final class IndexCatalog {

    static final String QUERY = """
            SELECT c.relname, a.attname
            FROM pg_catalog.pg_index i
            JOIN pg_catalog.pg_class c ON c.oid = i.indrelid
            JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
            WHERE i.indisvalid AND i.indpred IS NULL
              AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')""";

    private IndexCatalog() {
    }

    /** The indexed columns of the database {@code connection} is connected to. */
    public static IndexedColumns read(Connection connection) throws SQLException {
        Map<String, Set<String>> leading = new HashMap<>();
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(QUERY)) {
            while (rows.next()) {
                leading.computeIfAbsent(rows.getString(1), table -> new HashSet<>()).add(rows.getString(2));
            }
        }
        return IndexedColumns.of(leading);
    }
}
