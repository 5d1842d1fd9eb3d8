package io.memogate.estimator.calcite;

import io.memogate.estimator.planner.QueryBlock;
import java.util.Optional;
import java.util.Set;
import org.apache.calcite.sql.SqlNode;

/**
 * The queries of the views a statement may name, for {@link QueryBlockBuilder} to expand as PostgreSQL's
 * rewriter does. Looked up by the unqualified name in FROM, as written (the source folds it).
 */
@FunctionalInterface
public interface ViewSource {

    /** No view known: every name in FROM that is not a CTE is a table. */
    ViewSource NONE = name -> Optional.empty();

    /** The view of that name, if it is one. */
    Optional<ViewBody> view(String name);

    /** A view's query, as far as it could be read. */
    sealed interface ViewBody {
        /** Tokens of the definition: the rewriter copies its query tree into the statement's. */
        int tokens();
    }

    /**
     * A view whose definition Calcite parsed.
     *
     * @param materialized CTE names of the definition written MATERIALIZED, as {@link PostgresRewriter} found
     * @param notMaterialized those written NOT MATERIALIZED
     * @param securityBarrier never pulled up into the statement
     */
    record Parsed(SqlNode query, Set<String> materialized, Set<String> notMaterialized, boolean securityBarrier,
                  int tokens) implements ViewBody {
        public Parsed {
            materialized = Set.copyOf(materialized);
            notMaterialized = Set.copyOf(notMaterialized);
        }
    }

    /** A view whose definition Calcite could not read, as the lexical fallback reads it: planned apart. */
    record Unparsed(QueryBlock block, int tokens) implements ViewBody {
    }
}
