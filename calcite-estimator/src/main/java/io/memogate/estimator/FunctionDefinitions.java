package io.memogate.estimator;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The SQL functions PostgreSQL inlines into FROM, and their queries: a set-returning {@code LANGUAGE sql}
 * function that is STABLE or IMMUTABLE, not STRICT, not SECURITY DEFINER and has no SET clause, whose body
 * is one SELECT ({@code inline_set_returning_function}, src/backend/optimizer/util/clauses.c), is replaced
 * by that SELECT as a sub-select, which the planner then pulls up like any other: a "parameterized view".
 * Whoever reads the catalog ({@code pg_proc}) passes the qualifying functions along; without them
 * ({@link #NONE}) a function in FROM is a function scan, one relation.
 *
 * <p>Functions are known by their unqualified names, folded to lower case, and the numbers of arguments a
 * call may pass (fewer where the last ones have defaults, more for a VARIADIC one): PostgreSQL tells
 * overloads apart by argument types, which the SQL text alone does not show, so of several that a call
 * fits the longest body is taken. Immutable; compared by identity, as {@link ViewDefinitions}.
 */
public final class FunctionDefinitions {

    /** No function known: each is a function scan. */
    public static final FunctionDefinitions NONE = new FunctionDefinitions(Map.of(), 0);

    /**
     * One inlinable function.
     *
     * @param arguments how many arguments it declares ({@code pronargs})
     * @param defaults how many of the last ones have defaults ({@code pronargdefaults})
     * @param variadic whether the last one is VARIADIC: a call may pass it any number of values
     * @param body its body ({@code prosrc}): the SELECT, with {@code $n} or argument names for the arguments
     */
    public record Function(String name, int arguments, int defaults, boolean variadic, String body) {
        public Function {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(body, "body");
        }

        /** A function without defaults or VARIADIC. */
        public Function(String name, int arguments, String body) {
            this(name, arguments, 0, false, body);
        }

        /** Whether a call with {@code passed} arguments can be a call of this function. */
        boolean accepts(int passed) {
            return passed >= arguments - defaults && (passed <= arguments || variadic);
        }
    }

    /** Per folded name, the functions of that name, longest body first. */
    private final Map<String, List<Function>> functions;
    private final int size;

    private FunctionDefinitions(Map<String, List<Function>> functions, int size) {
        this.functions = functions;
        this.size = size;
    }

    public static FunctionDefinitions of(Collection<Function> functions) {
        Map<String, List<Function>> byName = new HashMap<>();
        for (Function function : functions) {
            byName.computeIfAbsent(fold(function.name()), name -> new ArrayList<>()).add(function);
        }
        byName.replaceAll((name, list) -> list.stream()
                .sorted(Comparator.comparingInt((Function function) -> function.body().length()).reversed()).toList());
        return byName.isEmpty() ? NONE : new FunctionDefinitions(Map.copyOf(byName), functions.size());
    }

    /** The function of that name that a call with {@code arguments} arguments can be, if one is inlinable. */
    public Optional<Function> function(String name, int arguments) {
        List<Function> named = functions.isEmpty() ? null : functions.get(fold(name));
        return named == null ? Optional.empty()
                : named.stream().filter(function -> function.accepts(arguments)).findFirst();
    }

    /** Whether an inlinable function has that name, whatever its arguments. */
    public boolean containsName(String name) {
        return !functions.isEmpty() && functions.containsKey(fold(name));
    }

    public int size() {
        return size;
    }

    /** Whether {@code other} holds the same functions (a read again that found nothing new). */
    public boolean sameContent(FunctionDefinitions other) {
        return functions.equals(other.functions);
    }

    public boolean isEmpty() {
        return functions.isEmpty();
    }

    private static String fold(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return "FunctionDefinitions[" + size + " functions]";
    }
}
