package io.memogate.estimator;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
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
 * <p>Names are compared as the server stores them: a caller folds an unquoted identifier to lower case and
 * keeps a quoted one as written, as PostgreSQL does. A schema-qualified reference finds only that schema's
 * view; an unqualified one, of views of one name in several schemas, the longest definition (which one a
 * session reaches depends on its search_path, which the catalog read does not know; the longer one is the
 * likelier to be the larger join). Immutable; compared by identity, as {@code IndexedColumns}: a new catalog
 * read is a new instance, which the estimate caches key on.
 */
public final class ViewDefinitions {

    /** No view is known: each is estimated as one relation. */
    public static final ViewDefinitions NONE = new ViewDefinitions(Map.of(), Map.of());

    /**
     * One view.
     *
     * @param schema its schema; empty when not known, and then any qualified reference of its name finds it
     * @param name its name, as stored (unquoted names in lower case)
     * @param definition its query as {@code pg_get_viewdef} prints it (a trailing semicolon is allowed)
     * @param securityBarrier created {@code WITH (security_barrier)}: PostgreSQL never pulls such a view up
     *     ({@code is_simple_subquery}), so its joins are planned apart from the statement's
     * @param materialized a materialized view: a relation in FROM, its query planned by a refresh
     */
    public record View(String schema, String name, String definition, boolean securityBarrier,
                       boolean materialized) {
        public View {
            Objects.requireNonNull(schema, "schema");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(definition, "definition");
        }

        /** A plain view of a schema not known. */
        public View(String name, String definition, boolean securityBarrier) {
            this("", name, definition, securityBarrier, false);
        }

        /** A view or materialized view of a schema not known. */
        public View(String name, String definition, boolean securityBarrier, boolean materialized) {
            this("", name, definition, securityBarrier, materialized);
        }

        boolean inSchema(Optional<String> wanted) {
            return wanted.isEmpty() || schema.isEmpty() || schema.equals(wanted.get());
        }
    }

    /** Per name, the views of that name, longest definition first. */
    private final Map<String, List<View>> views;
    private final Map<String, List<View>> materialized;

    private ViewDefinitions(Map<String, List<View>> views, Map<String, List<View>> materialized) {
        this.views = views;
        this.materialized = materialized;
    }

    public static ViewDefinitions of(Collection<View> views) {
        Map<String, List<View>> plain = new HashMap<>();
        Map<String, List<View>> materialized = new HashMap<>();
        for (View view : views) {
            (view.materialized() ? materialized : plain).computeIfAbsent(view.name(), name -> new ArrayList<>())
                    .add(view);
        }
        return plain.isEmpty() && materialized.isEmpty() ? NONE
                : new ViewDefinitions(longestFirst(plain), longestFirst(materialized));
    }

    private static Map<String, List<View>> longestFirst(Map<String, List<View>> byName) {
        Map<String, List<View>> sorted = new HashMap<>();
        byName.forEach((name, list) -> sorted.put(name, list.stream()
                .sorted(Comparator.comparingInt((View view) -> view.definition().length()).reversed()
                        .thenComparing(View::schema)).toList()));
        return Map.copyOf(sorted);
    }

    /** The (plain) view {@code name}, in {@code schema} when the reference names one. */
    public Optional<View> view(Optional<String> schema, String name) {
        return find(views, schema, name);
    }

    /** The (plain) view {@code name} of any schema. */
    public Optional<View> view(String name) {
        return view(Optional.empty(), name);
    }

    /** The materialized view {@code name}, in {@code schema} when the reference names one. */
    public Optional<View> materializedView(Optional<String> schema, String name) {
        return find(materialized, schema, name);
    }

    /** The materialized view {@code name} of any schema. */
    public Optional<View> materializedView(String name) {
        return materializedView(Optional.empty(), name);
    }

    private static Optional<View> find(Map<String, List<View>> byName, Optional<String> schema, String name) {
        List<View> named = byName.isEmpty() ? null : byName.get(name);
        return named == null ? Optional.empty() : named.stream().filter(view -> view.inSchema(schema)).findFirst();
    }

    /** Whether a (plain) view of some schema has that name: one that FROM expands. */
    public boolean contains(String name) {
        return !views.isEmpty() && views.containsKey(name);
    }

    /** Whether {@code other} holds the same views (a read again that found nothing new). */
    public boolean sameContent(ViewDefinitions other) {
        return views.equals(other.views) && materialized.equals(other.materialized);
    }

    /** Views and materialized views. */
    public int size() {
        return views.values().stream().mapToInt(List::size).sum()
                + materialized.values().stream().mapToInt(List::size).sum();
    }

    /** No plain view: no FROM item to expand. */
    public boolean isEmpty() {
        return views.isEmpty();
    }

    @Override
    public String toString() {
        return "ViewDefinitions[" + views.size() + " view names, " + materialized.size() + " materialized]";
    }
}
