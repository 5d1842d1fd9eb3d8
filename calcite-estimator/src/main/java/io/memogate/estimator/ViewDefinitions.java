package io.memogate.estimator;

import java.util.Collection;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The catalog's views and their queries ({@code pg_get_viewdef}): PostgreSQL's rewriter replaces a view in
 * FROM with its query, a sub-select the planner then pulls up like any other, so a view over sixteen tables
 * is a sixteen-table join search although the statement names one relation. A materialized view is a table
 * in FROM, but {@code REFRESH MATERIALIZED VIEW} plans its query. The estimator reads SQL, not the server, so
 * whoever reads the catalog passes the definitions along; without them ({@link #NONE}) a view is one relation
 * and a refresh plans nothing the estimator can see.
 *
 * <p>Views are known by their unqualified names, folded to lower case as PostgreSQL folds unquoted
 * identifiers; of views of one name in several schemas the longest definition is kept (which one a session
 * reaches depends on its search_path, which the catalog read does not know; the longer one is the likelier
 * to be the larger join). Immutable; compared by identity, as {@code IndexedColumns}: a new catalog read is
 * a new instance, which the estimate caches key on.
 */
public final class ViewDefinitions {

    /** No view is known: each is estimated as one relation. */
    public static final ViewDefinitions NONE = new ViewDefinitions(Map.of(), Map.of());

    /**
     * One view.
     *
     * @param name its unqualified name
     * @param definition its query as {@code pg_get_viewdef} prints it (a trailing semicolon is allowed)
     * @param securityBarrier created {@code WITH (security_barrier)}: PostgreSQL never pulls such a view up
     *     ({@code is_simple_subquery}), so its joins are planned apart from the statement's
     * @param materialized a materialized view: a relation in FROM, its query planned by a refresh
     */
    public record View(String name, String definition, boolean securityBarrier, boolean materialized) {
        public View {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(definition, "definition");
        }

        /** A plain view. */
        public View(String name, String definition, boolean securityBarrier) {
            this(name, definition, securityBarrier, false);
        }
    }

    private final Map<String, View> views;
    private final Map<String, View> materialized;

    private ViewDefinitions(Map<String, View> views, Map<String, View> materialized) {
        this.views = views;
        this.materialized = materialized;
    }

    public static ViewDefinitions of(Collection<View> views) {
        Map<String, View> plain = new HashMap<>();
        Map<String, View> materialized = new HashMap<>();
        for (View view : views) {
            (view.materialized() ? materialized : plain).merge(fold(view.name()), view,
                    (a, b) -> b.definition().length() > a.definition().length() ? b : a);
        }
        return plain.isEmpty() && materialized.isEmpty() ? NONE
                : new ViewDefinitions(Map.copyOf(plain), Map.copyOf(materialized));
    }

    /** The (plain) view of that name (folded as an unquoted identifier), if the catalog has one. */
    public Optional<View> view(String name) {
        return views.isEmpty() ? Optional.empty() : Optional.ofNullable(views.get(fold(name)));
    }

    /** The materialized view of that name, likewise. */
    public Optional<View> materializedView(String name) {
        return materialized.isEmpty() ? Optional.empty() : Optional.ofNullable(materialized.get(fold(name)));
    }

    /** Whether a (plain) view has that name: one that FROM expands. */
    public boolean contains(String name) {
        return !views.isEmpty() && views.containsKey(fold(name));
    }

    /** Views and materialized views. */
    public int size() {
        return views.size() + materialized.size();
    }

    /** No plain view: no FROM item to expand. */
    public boolean isEmpty() {
        return views.isEmpty();
    }

    private static String fold(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return "ViewDefinitions[" + views.size() + " views, " + materialized.size() + " materialized]";
    }
}
