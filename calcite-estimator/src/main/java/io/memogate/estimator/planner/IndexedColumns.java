package io.memogate.estimator.planner;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The catalog's word on indexes: per table, the columns that lead one of its indexes (an index's first
 * column), which is what lets PostgreSQL scan the table by an index parameterized by a join partner
 * ({@code match_join_clauses_to_index}, src/backend/optimizer/path/indxpath.c). The estimator reads SQL,
 * not the server, so whoever can read the catalog ({@code pg_index}) passes this along; without it
 * ({@link #NONE}) no index scan is counted.
 *
 * <p>Tables are known by their unqualified names, and names are compared as PostgreSQL folds unquoted
 * identifiers (lower case); a name found in several schemas has the union of their indexed columns, the
 * reading that counts more paths. Immutable; compared by identity, so that the estimate cache can key on
 * an instance cheaply: a new catalog read is a new instance.
 */
public final class IndexedColumns {

    /** No catalog: no table has an index the estimator knows of. */
    public static final IndexedColumns NONE = new IndexedColumns(Map.of());

    private final Map<String, Set<String>> leadingColumns;

    private IndexedColumns(Map<String, Set<String>> leadingColumns) {
        this.leadingColumns = leadingColumns;
    }

    /** @param leadingColumns per table, the first columns of its indexes */
    public static IndexedColumns of(Map<String, ? extends Set<String>> leadingColumns) {
        Map<String, Set<String>> folded = new HashMap<>();
        leadingColumns.forEach((table, columns) -> {
            Set<String> into = folded.computeIfAbsent(fold(table), t -> new HashSet<>());
            columns.forEach(column -> into.add(fold(column)));
        });
        folded.replaceAll((table, columns) -> Set.copyOf(columns));
        return new IndexedColumns(Map.copyOf(folded));
    }

    /** Whether {@code column} of {@code table} leads one of its indexes. */
    public boolean leadsIndex(String table, String column) {
        Set<String> columns = leadingColumns.get(fold(Objects.requireNonNull(table, "table")));
        return columns != null && columns.contains(fold(Objects.requireNonNull(column, "column")));
    }

    /** Whether {@code other} holds the same indexed columns (a read again that found nothing new). */
    public boolean sameContent(IndexedColumns other) {
        return leadingColumns.equals(other.leadingColumns);
    }

    /** Tables with at least one index on a column. */
    public int tables() {
        return leadingColumns.size();
    }

    private static String fold(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return "IndexedColumns[" + leadingColumns.size() + " tables]";
    }
}
