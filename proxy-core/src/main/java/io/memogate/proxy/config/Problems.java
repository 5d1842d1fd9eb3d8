package io.memogate.proxy.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The problems found in one configuration, so that one run of the loader tells the user every mistake
 * instead of one per attempt. They are kept in the order found, which is the order of the loader's
 * steps: the file's shape (YAML syntax, unknown keys, a list where a value belongs), then values that
 * do not parse, then ranges and the rules that span several fields.
 *
 * <p>One mistake often shows up more than once as loading proceeds: a {@code host} written as a list is
 * first a type mismatch for Jackson and then, having no value, "required" for the validator. So a field
 * problem is dropped when an earlier one was recorded for the same path or for an enclosing one; the
 * first names the real mistake. Problems that involve several fields (a database routed to two backends)
 * are {@link #addGeneral general} and never dropped.
 */
final class Problems {

    private record Problem(String path, String message) {
    }

    private final List<Problem> problems = new ArrayList<>();
    /** Duration fields the file wrote as a plain number, i.e. milliseconds ({@link Durations#isPlainNumber}). */
    private final Set<String> plainDurations = new HashSet<>();

    /**
     * Records a problem with the field at {@code path} (e.g. {@code backends[1].port}); {@code message}
     * is the full line the user reads and names the path itself.
     */
    void add(String path, String message) {
        boolean known = problems.stream().anyMatch(p -> p.path != null && encloses(p.path, path));
        if (!known) {
            problems.add(new Problem(path, message));
        }
    }

    /** Records a problem that is not about one field alone. */
    void addGeneral(String message) {
        problems.add(new Problem(null, message));
    }

    /** Notes that the duration at {@code path} was written without a unit, for {@link #wrotePlainNumber}. */
    void notePlainNumber(String path) {
        plainDurations.add(path);
    }

    /** Whether the duration at {@code path} was written without a unit (never, for a configuration built in code). */
    boolean wrotePlainNumber(String path) {
        return plainDurations.contains(path);
    }

    boolean isEmpty() {
        return problems.isEmpty();
    }

    List<String> messages() {
        return problems.stream().map(Problem::message).toList();
    }

    /** @param source the file the problems are in, or null when the configuration was not read from one */
    void throwIfAny(String source) {
        if (!problems.isEmpty()) {
            throw new ConfigException(source, messages());
        }
    }

    /** Whether {@code outer} is {@code inner} or a path that contains it: "a[0]" encloses "a[0].b". */
    private static boolean encloses(String outer, String inner) {
        if (outer.isEmpty() || !inner.startsWith(outer)) {
            return outer.equals(inner);
        }
        return inner.length() == outer.length()
                || inner.charAt(outer.length()) == '.' || inner.charAt(outer.length()) == '[';
    }
}
