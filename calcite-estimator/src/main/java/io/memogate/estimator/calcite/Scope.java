package io.memogate.estimator.calcite;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.sql.SqlIdentifier;

/**
 * The FROM items one SELECT can name, and the SELECTs around it: how a column reference becomes the
 * relation(s) it belongs to. Resolving a name in an outer scope marks the scopes in between correlated
 * (PostgreSQL pulls up an EXISTS only when it is correlated and an IN only when it is not).
 *
 * <p>Unqualified columns: with one FROM item they are its; with several, the catalog would decide, which
 * the estimator does not have. It then tries the TPC-H / TPC-DS naming habit of prefixing columns with
 * the table's initials ({@code ss_item_sk} of {@code store_sales}, {@code c_custkey} of
 * {@code customer}, {@code ps_partkey} of {@code partsupp}) and otherwise leaves the column unattributed (counted, so the reason can say so).
 */
final class Scope {

    /** What an alias stands for: a relation, or a pulled-up sub-select whose columns come from its relations. */
    sealed interface Source {
        Set<String> column(String column);

        /** A table, function, CTE scan or sub-select planned separately: one relation. */
        record Relation(String relation, String table) implements Source {
            @Override
            public Set<String> column(String column) {
                return Set.of(relation);
            }
        }

        /** A sub-select PostgreSQL pulls up: each output column comes from some of its relations. */
        record PulledUp(Map<String, Set<String>> columns, Set<String> relations) implements Source {
            @Override
            public Set<String> column(String column) {
                return columns.getOrDefault(column, relations);
            }
        }
    }

    private final Scope parent;
    private final Map<String, Source> sources = new LinkedHashMap<>();
    private boolean correlated;
    /** Unattributed column references, shared by every scope of one statement. */
    private final int[] unattributed;

    /** The outermost scope of a statement. */
    Scope() {
        this.parent = null;
        this.unattributed = new int[1];
    }

    /** A SELECT inside {@code parent}. */
    Scope(Scope parent) {
        this.parent = parent;
        this.unattributed = parent.unattributed;
    }

    int unattributed() {
        return unattributed[0];
    }

    void put(String alias, Source source) {
        sources.put(alias, source);
    }

    boolean correlated() {
        return correlated;
    }

    /** The relations a column reference belongs to; empty when it cannot tell. */
    Set<String> resolve(SqlIdentifier id) {
        List<String> names = id.names;
        if (id.isStar()) {
            return Set.of();  // only in select lists, where it links nothing
        }
        if (names.size() >= 2) {
            String qualifier = names.get(names.size() - 2);
            String column = names.get(names.size() - 1);
            for (Scope s = this; s != null; s = s.parent) {
                Source source = s.sources.get(qualifier);
                if (source != null) {
                    markCorrelatedUpTo(s);
                    return source.column(column);
                }
            }
            return Set.of();
        }
        String column = names.get(0);
        for (Scope s = this; s != null; s = s.parent) {
            if (s.sources.isEmpty()) {
                continue;
            }
            Set<String> found = s.unqualified(column);
            if (found.isEmpty()) {
                unattributed[0]++;
            } else {
                markCorrelatedUpTo(s);
            }
            return found;
        }
        return Set.of();
    }

    private Set<String> unqualified(String column) {
        if (sources.size() == 1) {
            return sources.values().iterator().next().column(column);
        }
        int underscore = column.indexOf('_');
        if (underscore <= 0) {
            return Set.of();
        }
        String prefix = column.substring(0, underscore);
        // Best match wins: the table's initials (ss_ of store_sales, c_ of customer), then a name
        // starting with the prefix (d_ of date_dim, inv_ of inventory), then the prefix's letters in
        // order (ps_ of partsupp). Among equals the shortest name wins (p_ is part, not partsupp).
        Source best = null;
        int bestScore = Integer.MAX_VALUE;
        int bestLength = Integer.MAX_VALUE;
        boolean tie = false;
        for (Source source : sources.values()) {
            if (!(source instanceof Source.Relation r)) {
                continue;
            }
            String table = r.table();
            int score = initials(table).equals(prefix) ? 0 : table.startsWith(prefix) ? 1
                    : table.charAt(0) == prefix.charAt(0) && isSubsequence(prefix, table) ? 2 : -1;
            if (score < 0) {
                continue;
            }
            if (score < bestScore || score == bestScore && table.length() < bestLength) {
                best = source;
                bestScore = score;
                bestLength = table.length();
                tie = false;
            } else if (score == bestScore && table.length() == bestLength) {
                tie = true;
            }
        }
        return best == null || tie ? Set.of() : best.column(column);
    }

    private static boolean isSubsequence(String letters, String word) {
        int k = 0;
        for (int i = 0; i < word.length() && k < letters.length(); i++) {
            if (word.charAt(i) == letters.charAt(k)) {
                k++;
            }
        }
        return k == letters.length();
    }

    private static String initials(String table) {
        StringBuilder b = new StringBuilder();
        for (String word : table.split("_")) {
            if (!word.isEmpty()) {
                b.append(word.charAt(0));
            }
        }
        return b.toString();
    }

    private void markCorrelatedUpTo(Scope owner) {
        for (Scope s = this; s != owner && s != null; s = s.parent) {
            s.correlated = true;
        }
    }
}
