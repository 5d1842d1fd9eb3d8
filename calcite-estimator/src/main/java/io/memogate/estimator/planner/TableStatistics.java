package io.memogate.estimator.planner;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The catalog's statistics of tables: how many rows each has, how many pages it fills, and its indexes with
 * the distinct values of each prefix of their columns. MySQL's and MariaDB's join search prices every
 * extension of a partial plan from these ({@code best_access_path}, sql/sql_select.cc) and cuts the orders
 * that cost more than the best plan found, so how long it searches depends on them, not on the join graph
 * alone. The estimator reads SQL, so whoever can read the catalog ({@code information_schema.TABLES} and
 * {@code STATISTICS}) passes this along; without it ({@link #NONE}) no table is known.
 *
 * <p>Tables are known by their unqualified names in lower case; a name found in several schemas keeps the
 * largest table, the reading that predicts the longer search. Immutable; compared by identity, so that the
 * estimate cache can key on an instance cheaply: a new read is a new instance.
 */
public final class TableStatistics {

    /** No catalog: no table's statistics are known. */
    public static final TableStatistics NONE = new TableStatistics(Map.of());

    /**
     * One index.
     *
     * @param columns its columns in order, lower case
     * @param unique whether the whole key names at most one row (a primary key or a unique index)
     * @param distinct per prefix of {@code columns}, the distinct values the server reports for it (its
     *     {@code CARDINALITY}); as long as {@code columns}, each at least 1
     */
    public record Index(List<String> columns, boolean unique, List<Long> distinct) {
        public Index {
            columns = columns.stream().map(TableStatistics::fold).toList();
            distinct = List.copyOf(distinct);
            if (columns.isEmpty() || columns.size() != distinct.size()) {
                throw new IllegalArgumentException("an index needs a distinct count per column, had " + columns
                        + " and " + distinct);
            }
        }
    }

    /**
     * One table.
     *
     * @param rows its rows ({@code TABLE_ROWS}), at least 1
     * @param pages the 16 KiB pages of its rows ({@code DATA_LENGTH}), at least 1: what a full scan reads
     * @param indexes its indexes, the primary key first where it has one
     */
    public record Table(long rows, long pages, List<Index> indexes) {
        public Table {
            rows = Math.max(1, rows);
            pages = Math.max(1, pages);
            indexes = List.copyOf(indexes);
        }
    }

    private final Map<String, Table> tables;

    private TableStatistics(Map<String, Table> tables) {
        this.tables = tables;
    }

    /** @param tables per table name, its statistics */
    public static TableStatistics of(Map<String, Table> tables) {
        Map<String, Table> folded = new HashMap<>();
        tables.forEach((name, table) -> folded.merge(fold(name), table, (a, b) -> a.rows() >= b.rows() ? a : b));
        return new TableStatistics(Map.copyOf(folded));
    }

    /** The statistics of {@code table}, if it was read. */
    public Optional<Table> table(String table) {
        return Optional.ofNullable(tables.get(fold(Objects.requireNonNull(table, "table"))));
    }

    /** Tables known. */
    public int tables() {
        return tables.size();
    }

    /** Whether {@code other} holds the same statistics (a read again that found nothing new). */
    public boolean sameContent(TableStatistics other) {
        return tables.equals(other.tables);
    }

    private static String fold(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return "TableStatistics[" + tables.size() + " tables]";
    }
}
