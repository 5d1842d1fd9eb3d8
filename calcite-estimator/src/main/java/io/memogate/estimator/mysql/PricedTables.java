package io.memogate.estimator.mysql;

import io.memogate.estimator.planner.BlockGraph;
import io.memogate.estimator.planner.ColumnRef;
import io.memogate.estimator.planner.TableStatistics;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The tables of one join search with what MariaDB's {@code best_access_path} prices them by: rows, pages, and
 * the key lookups each can be reached by from a partial plan. A lookup uses a prefix of an index's columns,
 * each column equal (by an equality class, {@link BlockGraph#equalityClasses()}) to a column of a table
 * already joined; it returns {@code rows / distinct(prefix)} rows, or one through a whole unique key
 * ({@code eq_ref}). Its price per lookup, as MariaDB 10.11's optimizer trace shows it: 1 for a unique key and
 * for an index that holds every column the statement's joins read of the table (an index-only read), else 1
 * plus the rows it returns bounded by {@code worst_seeks} (a tenth of the rows, or three reads of each page).
 * Built only when every relation of the search is a table the statistics know.
 */
final class PricedTables {

    /**
     * One way to reach a table by key.
     *
     * @param needs per column of the index prefix, the tables any one of which binds it (a bit per relation)
     * @param rows rows returned per lookup, at least 1
     * @param eqRef whether it is a whole unique key
     * @param price cost of one lookup
     */
    record Lookup(long[] needs, double rows, boolean eqRef, double price) {

        boolean usableAfter(long prefix) {
            for (long need : needs) {
                if ((need & prefix) == 0) {
                    return false;
                }
            }
            return true;
        }
    }

    final int size;
    final double[] rows;
    final double[] pages;
    final Lookup[][] lookups;

    private PricedTables(double[] rows, double[] pages, Lookup[][] lookups) {
        this.size = rows.length;
        this.rows = rows;
        this.pages = pages;
        this.lookups = lookups;
    }

    /** The block's tables priced by {@code statistics}; empty when one of them is not known there. */
    static Optional<PricedTables> of(BlockGraph block, TableStatistics statistics) {
        int n = block.relations().size();
        if (n > Long.SIZE || statistics.tables() == 0) {
            return Optional.empty();
        }
        List<TableStatistics.Table> tables = new ArrayList<>();
        for (Optional<String> table : block.tables()) {
            Optional<TableStatistics.Table> known = table.flatMap(statistics::table);
            if (known.isEmpty()) {
                return Optional.empty();
            }
            tables.add(known.get());
        }
        Map<String, List<Integer>> byName = new HashMap<>();
        for (int i = 0; i < n; i++) {
            byName.computeIfAbsent(block.relations().get(i), r -> new ArrayList<>()).add(i);
        }
        // Per relation and column: the other relations whose columns equal it.
        List<Map<String, Long>> partners = new ArrayList<>();
        List<Set<String>> joinedColumns = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            partners.add(new HashMap<>());
            joinedColumns.add(new HashSet<>());
        }
        for (List<ColumnRef> equal : block.equalityClasses()) {
            long members = 0;
            for (ColumnRef column : equal) {
                for (int i : byName.getOrDefault(column.relation(), List.of())) {
                    members |= 1L << i;
                }
            }
            for (ColumnRef column : equal) {
                for (int i : byName.getOrDefault(column.relation(), List.of())) {
                    String name = column.column().toLowerCase(java.util.Locale.ROOT);
                    partners.get(i).merge(name, members & ~(1L << i), (a, b) -> a | b);
                    joinedColumns.get(i).add(name);
                }
            }
        }
        double[] rows = new double[n];
        double[] pages = new double[n];
        Lookup[][] lookups = new Lookup[n][];
        for (int i = 0; i < n; i++) {
            TableStatistics.Table table = tables.get(i);
            rows[i] = table.rows();
            pages[i] = table.pages();
            lookups[i] = lookups(table, partners.get(i), joinedColumns.get(i)).toArray(Lookup[]::new);
        }
        return Optional.of(new PricedTables(rows, pages, lookups));
    }

    private static List<Lookup> lookups(TableStatistics.Table table, Map<String, Long> partners,
                                        Set<String> joinedColumns) {
        Set<String> primary = table.indexes().isEmpty() || !table.indexes().getFirst().unique()
                ? Set.of() : Set.copyOf(table.indexes().getFirst().columns());
        double worstSeeks = Math.min(table.rows() / 10.0, 3.0 * table.pages());
        List<Lookup> lookups = new ArrayList<>();
        for (TableStatistics.Index index : table.indexes()) {
            Set<String> held = new HashSet<>(index.columns());
            held.addAll(primary); // InnoDB's secondary indexes hold the primary key
            boolean covering = held.containsAll(joinedColumns);
            List<Long> needs = new ArrayList<>();
            for (int k = 0; k < index.columns().size(); k++) {
                Long bound = partners.get(index.columns().get(k));
                if (bound == null || bound == 0) {
                    break;
                }
                needs.add(bound);
                boolean whole = k == index.columns().size() - 1;
                boolean eqRef = index.unique() && whole;
                double returned = eqRef ? 1 : Math.max(1, Math.floor(table.rows() / (double) index.distinct().get(k)));
                double price = eqRef || covering ? 1 : 1 + Math.min(returned, worstSeeks);
                lookups.add(new Lookup(needs.stream().mapToLong(Long::longValue).toArray(), returned, eqRef, price));
            }
        }
        return lookups;
    }
}
