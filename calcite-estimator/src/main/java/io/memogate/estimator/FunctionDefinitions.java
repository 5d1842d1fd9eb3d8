package io.memogate.estimator;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The SQL functions PostgreSQL inlines into FROM, and their queries: a set-returning {@code LANGUAGE sql}
 * function that is STABLE or IMMUTABLE, not STRICT, not SECURITY DEFINER and has no SET clause, whose body
 * is one SELECT ({@code inline_set_returning_function}, src/backend/optimizer/util/clauses.c), is replaced
 * by that SELECT as a sub-select, which the planner then pulls up like any other: a "parameterized view".
 * Whoever reads the catalog ({@code pg_proc}) passes the qualifying functions along; without them
 * ({@link #NONE}) a function in FROM is a function scan, one relation.
 *
 * <p>Functions are known by their unqualified names, folded as PostgreSQL folds unquoted identifiers, and
 * their number of arguments (PostgreSQL tells overloads apart by argument types, which the SQL text alone
 * does not show; of several with one name and count the longest body is kept). Immutable; compared by
 * identity, as {@link ViewDefinitions}.
 */
public final class FunctionDefinitions {

    /** No function known: each is a function scan. */
    public static final FunctionDefinitions NONE = new FunctionDefinitions(Map.of(), Set.of());

    /**
     * One inlinable function.
     *
     * @param arguments how many arguments it takes
     * @param body its body ({@code prosrc}): the SELECT, with {@code $n} or argument names for the arguments
     */
    public record Function(String name, int arguments, String body) {
        public Function {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(body, "body");
        }
    }

    private final Map<String, Function> functions;
    private final Set<String> names;

    private FunctionDefinitions(Map<String, Function> functions, Set<String> names) {
        this.functions = functions;
        this.names = names;
    }

    public static FunctionDefinitions of(Collection<Function> functions) {
        Map<String, Function> byKey = new HashMap<>();
        Set<String> names = new HashSet<>();
        for (Function function : functions) {
            byKey.merge(key(function.name(), function.arguments()), function,
                    (a, b) -> b.body().length() > a.body().length() ? b : a);
            names.add(fold(function.name()));
        }
        return byKey.isEmpty() ? NONE : new FunctionDefinitions(Map.copyOf(byKey), Set.copyOf(names));
    }

    /** The function of that name taking {@code arguments} arguments, if the catalog has an inlinable one. */
    public Optional<Function> function(String name, int arguments) {
        return functions.isEmpty() ? Optional.empty() : Optional.ofNullable(functions.get(key(name, arguments)));
    }

    /** Whether an inlinable function has that name, whatever its arguments. */
    public boolean containsName(String name) {
        return !names.isEmpty() && names.contains(fold(name));
    }

    public int size() {
        return functions.size();
    }

    public boolean isEmpty() {
        return functions.isEmpty();
    }

    private static String key(String name, int arguments) {
        return fold(name) + "/" + arguments;
    }

    private static String fold(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return "FunctionDefinitions[" + functions.size() + " functions]";
    }
}
