package io.memogate.proxy.mysql.catalog;

import io.memogate.estimator.planner.TableStatistics;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one schema's {@link TableStatistics} from a MySQL or MariaDB server: each base table's row count and
 * data pages ({@code information_schema.TABLES}: {@code TABLE_ROWS}, {@code DATA_LENGTH} in 16 KiB pages), and
 * its indexes with the distinct values of each prefix of their columns ({@code information_schema.STATISTICS}:
 * {@code CARDINALITY}, which InnoDB keeps from its sampled statistics and ANALYZE TABLE refreshes). These are
 * what the optimizer prices its join orders by. Two queries over the schema, which need no privilege beyond
 * seeing the tables (information_schema shows a user the tables it has any privilege on).
 */
public final class StatisticsCatalog {

    /** MySQL's and MariaDB's "Unknown database" (ER_BAD_DB_ERROR), as the driver reports it. */
    public static final int UNKNOWN_DATABASE = 1049;
    private static final double PAGE_BYTES = 16_384;

    static final String SCHEMA = "SELECT 1 FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?";
    static final String TABLES = """
            SELECT TABLE_NAME, TABLE_ROWS, DATA_LENGTH FROM information_schema.TABLES
            WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE'""";
    static final String INDEXES = """
            SELECT TABLE_NAME, INDEX_NAME, COLUMN_NAME, CARDINALITY, NON_UNIQUE FROM information_schema.STATISTICS
            WHERE TABLE_SCHEMA = ? AND COLUMN_NAME IS NOT NULL
            ORDER BY TABLE_NAME, INDEX_NAME <> 'PRIMARY', INDEX_NAME, SEQ_IN_INDEX""";

    private StatisticsCatalog() {
    }

    /**
     * The statistics of {@code schema}'s tables.
     *
     * @throws SQLException with error code {@link #UNKNOWN_DATABASE} when the schema does not exist
     */
    public static TableStatistics read(Connection connection, String schema) throws SQLException {
        try (PreparedStatement exists = connection.prepareStatement(SCHEMA)) {
            exists.setString(1, schema);
            try (ResultSet row = exists.executeQuery()) {
                if (!row.next()) {
                    throw new SQLException("Unknown database '" + schema + "'", "42000", UNKNOWN_DATABASE);
                }
            }
        }
        Map<String, long[]> sizes = new HashMap<>();
        try (PreparedStatement tables = connection.prepareStatement(TABLES)) {
            tables.setString(1, schema);
            try (ResultSet rows = tables.executeQuery()) {
                while (rows.next()) {
                    long pages = (long) Math.ceil(rows.getLong(3) / PAGE_BYTES);
                    sizes.put(rows.getString(1), new long[] {rows.getLong(2), pages});
                }
            }
        }
        Map<String, Map<String, IndexColumns>> indexes = new HashMap<>();
        try (PreparedStatement statistics = connection.prepareStatement(INDEXES)) {
            statistics.setString(1, schema);
            try (ResultSet rows = statistics.executeQuery()) {
                while (rows.next()) {
                    long cardinality = rows.getLong(4); // NULL reads as 0: not known
                    boolean unique = rows.getLong(5) == 0;
                    indexes.computeIfAbsent(rows.getString(1), t -> new LinkedHashMap<>())
                            .computeIfAbsent(rows.getString(2), i -> new IndexColumns(unique))
                            .add(rows.getString(3), cardinality);
                }
            }
        }
        Map<String, TableStatistics.Table> tables = new HashMap<>();
        sizes.forEach((table, size) -> {
            long rowCount = Math.max(1, size[0]);
            List<TableStatistics.Index> kept = new ArrayList<>();
            for (IndexColumns index : indexes.getOrDefault(table, Map.of()).values()) {
                kept.add(index.toIndex(rowCount));
            }
            tables.put(table, new TableStatistics.Table(rowCount, size[1], kept));
        });
        return TableStatistics.of(tables);
    }

    /** One index's columns as the STATISTICS rows give them, in order. */
    private static final class IndexColumns {
        private final boolean unique;
        private final List<String> columns = new ArrayList<>();
        private final List<Long> distinct = new ArrayList<>();

        IndexColumns(boolean unique) {
            this.unique = unique;
        }

        void add(String column, long cardinality) {
            columns.add(column);
            distinct.add(cardinality);
        }

        /**
         * A cardinality the server does not know (NULL, 0) is taken as every row distinct for a unique index's
         * last column, else as the prefix before it: the optimizer then finds no help in that column.
         */
        TableStatistics.Index toIndex(long rows) {
            List<Long> known = new ArrayList<>();
            long before = 1;
            for (int k = 0; k < distinct.size(); k++) {
                long d = distinct.get(k);
                if (d <= 0) {
                    d = unique && k == distinct.size() - 1 ? rows : before;
                }
                known.add(Math.max(1, d));
                before = Math.max(1, d);
            }
            return new TableStatistics.Index(columns, unique, known);
        }
    }
}
