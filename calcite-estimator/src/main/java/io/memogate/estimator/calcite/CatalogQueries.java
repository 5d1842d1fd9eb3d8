package io.memogate.estimator.calcite;

import io.memogate.estimator.planner.QueryBlock;
import java.util.Optional;
import java.util.Set;
import org.apache.calcite.sql.SqlNode;

/**
 * The queries that PostgreSQL puts in place of names a statement's FROM holds, for {@link QueryBlockBuilder}
 * to expand as the server does: a view's, which the rewriter substitutes, and an inlinable SQL function's,
 * which the planner substitutes ({@code inline_set_returning_function}).
 */
public interface CatalogQueries {

    /** Nothing known: every name in FROM that is not a CTE is a table, every function a function scan. */
    CatalogQueries NONE = new CatalogQueries() {
        @Override
        public Optional<QueryBody> view(Optional<String> schema, String name) {
            return Optional.empty();
        }

        @Override
        public Optional<QueryBody> function(String name, int arguments) {
            return Optional.empty();
        }
    };

    /**
     * The view of that name, if it is one.
     *
     * @param schema the schema the reference names, if it names one
     * @param name as the parser leaves it: an unquoted name in lower case, a quoted one as written
     */
    Optional<QueryBody> view(Optional<String> schema, String name);

    /** The query of the SQL function of that name called with {@code arguments} arguments, if PostgreSQL inlines it. */
    Optional<QueryBody> function(String name, int arguments);

    /** A view's or function's query, as far as it could be read. */
    sealed interface QueryBody {
        /** Tokens of the definition: its query tree is copied into the statement's. */
        int tokens();
    }

    /**
     * A query Calcite parsed.
     *
     * @param materialized CTE names of the definition written MATERIALIZED, as the dialect's rewriter found
     * @param notMaterialized those written NOT MATERIALIZED
     * @param securityBarrier never pulled up into the statement
     */
    record Parsed(SqlNode query, Set<String> materialized, Set<String> notMaterialized, boolean securityBarrier,
                  int tokens) implements QueryBody {
        public Parsed {
            materialized = Set.copyOf(materialized);
            notMaterialized = Set.copyOf(notMaterialized);
        }
    }

    /** A query Calcite could not read, as the lexical fallback reads it: planned apart. */
    record Unparsed(QueryBlock block, int tokens) implements QueryBody {
    }
}
