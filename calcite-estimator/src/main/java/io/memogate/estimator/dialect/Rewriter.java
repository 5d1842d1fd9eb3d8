package io.memogate.estimator.dialect;

import java.util.List;
import java.util.Set;

/**
 * Token-level rewrites that let Calcite's parser read what the server accepts and the parser does not,
 * without changing what the join search sees: the same FROM items, the same conjuncts between the same
 * relations. Thread-safe.
 */
@FunctionalInterface
public interface Rewriter {

    /**
     * A statement as Calcite should see it.
     *
     * @param text the rewritten text
     * @param notes one short phrase per rewrite applied, for the estimate's reason
     * @param materialized CTE names written {@code AS MATERIALIZED}
     * @param notMaterialized CTE names written {@code AS NOT MATERIALIZED}
     */
    record Rewrite(String text, List<String> notes, Set<String> materialized, Set<String> notMaterialized) {
        public Rewrite {
            notes = List.copyOf(notes);
            materialized = Set.copyOf(materialized);
            notMaterialized = Set.copyOf(notMaterialized);
        }
    }

    /** {@code query}, one statement, rewritten; never throws on any text. */
    Rewrite rewrite(String query);
}
