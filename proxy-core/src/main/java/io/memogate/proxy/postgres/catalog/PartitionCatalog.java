package io.memogate.proxy.postgres.catalog;

import io.memogate.estimator.planner.PartitionedTables;
import io.memogate.estimator.planner.PartitionedTables.Partitioning;
import java.sql.Array;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a database's {@link PartitionedTables} from {@code pg_partitioned_table} and {@code pg_inherits}: per
 * partitioned table, its strategy, its key's columns and the partitions below it, sub-partitions counted (PostgreSQL expands a
 * sub-partitioned partition into its own children, each a relation the planner plans). System schemas are left
 * out. One catalog query.
 */
public final class PartitionCatalog {

    static final String QUERY = """
            WITH RECURSIVE below (root, child) AS (
                SELECT p.partrelid, i.inhrelid
                FROM pg_catalog.pg_partitioned_table p
                JOIN pg_catalog.pg_inherits i ON i.inhparent = p.partrelid
              UNION ALL
                SELECT b.root, i.inhrelid
                FROM below b
                JOIN pg_catalog.pg_inherits i ON i.inhparent = b.child
            )
            SELECT c.relname, p.partstrat, count(b.child),
                (SELECT CASE WHEN bool_or(k.attnum = 0) THEN NULL
                             ELSE array_agg(a.attname::text ORDER BY k.position) END
                 FROM unnest(p.partattrs::int2[]) WITH ORDINALITY AS k (attnum, position)
                 LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = p.partrelid AND a.attnum = k.attnum)
            FROM pg_catalog.pg_partitioned_table p
            JOIN pg_catalog.pg_class c ON c.oid = p.partrelid
            JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            LEFT JOIN below b ON b.root = p.partrelid
            WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
            GROUP BY p.partrelid, c.relname, p.partstrat, p.partattrs""";

    private PartitionCatalog() {
    }

    /** The partitioned tables of the database {@code connection} is connected to. */
    public static PartitionedTables read(Connection connection) throws SQLException {
        Map<String, Partitioning> tables = new HashMap<>();
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(QUERY)) {
            while (rows.next()) {
                String strategy = rows.getString(2);
                Partitioning partitioning = new Partitioning(strategy == null || strategy.isEmpty() ? '?'
                        : strategy.charAt(0), rows.getInt(3), keys(rows.getArray(4)));
                tables.merge(rows.getString(1), partitioning,
                        (a, b) -> a.partitions() >= b.partitions() ? a : b);
            }
        }
        return PartitionedTables.of(tables);
    }

    /** The key's column names; none when a key column is an expression (attnum 0), which nothing can pin. */
    private static List<String> keys(Array names) throws SQLException {
        if (names == null) {
            return List.of();
        }
        try {
            return List.of((String[]) names.getArray());
        } finally {
            names.free();
        }
    }
}
