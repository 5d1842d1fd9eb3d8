package io.memogate.estimator.postgres;

import io.memogate.estimator.dialect.DialectSettings;
import java.math.BigInteger;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The PostgreSQL settings that decide how a FROM clause is split into join search problems and how each
 * is searched, with PostgreSQL's names, defaults and ranges (src/backend/utils/misc/guc_tables.c): the
 * settings of {@link io.memogate.estimator.postgres.PostgresDialect}.
 *
 * @param joinCollapseLimit {@code join_collapse_limit}: explicit JOINs are flattened into one problem
 *     while it has at most this many items; 1 keeps the written order
 * @param fromCollapseLimit {@code from_collapse_limit}: the same for FROM lists and pulled-up subqueries
 * @param geqo {@code geqo}: whether the genetic optimizer replaces exhaustive search on large problems
 * @param geqoThreshold {@code geqo_threshold}: problems of at least this many items use GEQO
 * @param geqoEffort {@code geqo_effort}, 1..10: scales GEQO's default pool size
 * @param geqoPoolSize {@code geqo_pool_size}: 0 (or 1) lets GEQO choose from geqo_effort
 * @param geqoGenerations {@code geqo_generations}: 0 means as many as the pool size
 * @param partitionwiseJoin {@code enable_partitionwise_join}: joins of partitioned tables with the same
 *     partitioning, on their partition keys, are also planned partition by partition, a child join per
 *     partition for every such pair the search builds
 * @param partitionwiseAggregate {@code enable_partitionwise_aggregate}: grouping over a partitioned relation is
 *     also planned partition by partition
 * @param memoize {@code enable_memoize}: nested loops may cache their inner side's rows by parameter; planning
 *     for the first rows tries a Memoize path for every outer path against every parameterized base inner, which
 *     is most of what a LIMIT costs in planner memory (see {@link PostgresPlannerModel})
 */
public record PlannerSettings(
        int joinCollapseLimit,
        int fromCollapseLimit,
        boolean geqo,
        int geqoThreshold,
        int geqoEffort,
        int geqoPoolSize,
        int geqoGenerations,
        boolean partitionwiseJoin,
        boolean partitionwiseAggregate,
        boolean memoize) implements DialectSettings {

    @Override
    public boolean groupsPartitionwise() {
        return partitionwiseAggregate;
    }

    /** PostgreSQL's defaults (unchanged from 8.x to 18; the partitionwise settings since 11, Memoize since 14). */
    public static final PlannerSettings DEFAULTS = new PlannerSettings(8, 8, true, 12, 5, 0, 0, false, false, true);

    /** The names of the settings modelled, as PostgreSQL spells them. */
    public static final List<String> NAMES = List.of("join_collapse_limit", "from_collapse_limit", "geqo",
            "geqo_threshold", "geqo_effort", "geqo_pool_size", "geqo_generations", "enable_partitionwise_join",
            "enable_partitionwise_aggregate", "enable_memoize");

    /** What strtod reads as a decimal number (Java's own parser would also take "1f", "NaN", hex floats). */
    private static final Pattern DECIMAL = Pattern.compile("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?");

    /** The collapse limits and GEQO settings, the partitionwise settings off, Memoize on. */
    public PlannerSettings(int joinCollapseLimit, int fromCollapseLimit, boolean geqo, int geqoThreshold,
                           int geqoEffort, int geqoPoolSize, int geqoGenerations) {
        this(joinCollapseLimit, fromCollapseLimit, geqo, geqoThreshold, geqoEffort, geqoPoolSize, geqoGenerations,
                false, false, true);
    }

    public PlannerSettings {
        check("joinCollapseLimit", joinCollapseLimit, 1, Integer.MAX_VALUE);
        check("fromCollapseLimit", fromCollapseLimit, 1, Integer.MAX_VALUE);
        check("geqoThreshold", geqoThreshold, 2, Integer.MAX_VALUE);
        check("geqoEffort", geqoEffort, 1, 10);
        check("geqoPoolSize", geqoPoolSize, 0, Integer.MAX_VALUE);
        check("geqoGenerations", geqoGenerations, 0, Integer.MAX_VALUE);
    }

    /**
     * These settings after {@code SET name = value}, as PostgreSQL would apply it. Names are
     * case-insensitive; names this model does not use return {@code this}. Values are read as
     * PostgreSQL's {@code parse_bool} and {@code parse_int} read them (on/off/true/false/yes/no/1/0 and
     * unique prefixes; decimal, 0x hex, leading-0 octal, decimals rounded), optionally in single quotes;
     * an unquoted {@code DEFAULT} restores PostgreSQL's default (as {@code SET ... TO DEFAULT} and
     * {@code RESET} do). A value PostgreSQL would reject (unreadable or out of range) also returns
     * {@code this}: the server refuses that SET and keeps its old value, and so does the model.
     */
    @Override
    public PlannerSettings with(String name, String value) {
        return applied(name, value).orElse(this);
    }

    /**
     * Whether PostgreSQL would accept {@code SET name = value} for a setting this model uses: false for
     * a value it refuses ("invalid value for parameter", "outside the valid range") and for a name not
     * modelled. Whoever keeps a value to apply later keeps only accepted ones, so that a refused SET
     * leaves the value before it in force, as on the server.
     */
    public static boolean accepts(String name, String value) {
        return DEFAULTS.applied(name, value).isPresent();
    }

    private Optional<PlannerSettings> applied(String name, String value) {
        String key = name.strip().toLowerCase(Locale.ROOT);
        String text = value.strip();
        if (text.equalsIgnoreCase("default")) {
            String defaultText = DEFAULTS.text(key);
            return defaultText == null ? Optional.empty() : applied(key, defaultText);
        }
        if (text.length() >= 2 && text.startsWith("'") && text.endsWith("'")) {
            text = text.substring(1, text.length() - 1).replace("''", "'");
        }
        try {
            int join = joinCollapseLimit;
            int from = fromCollapseLimit;
            boolean genetic = geqo;
            int threshold = geqoThreshold;
            int effort = geqoEffort;
            int pool = geqoPoolSize;
            int generations = geqoGenerations;
            boolean pwJoin = partitionwiseJoin;
            boolean pwAggregate = partitionwiseAggregate;
            boolean memo = memoize;
            switch (key) {
                case "geqo" -> genetic = parseBool(text);
                case "join_collapse_limit" -> join = parseInt(text);
                case "from_collapse_limit" -> from = parseInt(text);
                case "geqo_threshold" -> threshold = parseInt(text);
                case "geqo_effort" -> effort = parseInt(text);
                case "geqo_pool_size" -> pool = parseInt(text);
                case "geqo_generations" -> generations = parseInt(text);
                case "enable_partitionwise_join" -> pwJoin = parseBool(text);
                case "enable_partitionwise_aggregate" -> pwAggregate = parseBool(text);
                case "enable_memoize" -> memo = parseBool(text);
                default -> {
                    return Optional.empty();
                }
            }
            return Optional.of(new PlannerSettings(join, from, genetic, threshold, effort, pool, generations, pwJoin,
                    pwAggregate, memo));
        } catch (IllegalArgumentException rejected) {
            return Optional.empty();
        }
    }

    /** The value of setting {@code key} as PostgreSQL shows it, or null for a setting not modelled. */
    private String text(String key) {
        return switch (key) {
            case "geqo" -> geqo ? "on" : "off";
            case "join_collapse_limit" -> Integer.toString(joinCollapseLimit);
            case "from_collapse_limit" -> Integer.toString(fromCollapseLimit);
            case "geqo_threshold" -> Integer.toString(geqoThreshold);
            case "geqo_effort" -> Integer.toString(geqoEffort);
            case "geqo_pool_size" -> Integer.toString(geqoPoolSize);
            case "geqo_generations" -> Integer.toString(geqoGenerations);
            case "enable_partitionwise_join" -> partitionwiseJoin ? "on" : "off";
            case "enable_partitionwise_aggregate" -> partitionwiseAggregate ? "on" : "off";
            case "enable_memoize" -> memoize ? "on" : "off";
            default -> null;
        };
    }

    /**
     * GEQO's pool size for a problem of {@code relations} items, as {@code gimme_pool_size}
     * (src/backend/optimizer/geqo/geqo_main.c): the setting if at least 2, else 2^(relations+1)
     * within [10, 50] x geqo_effort.
     */
    public int geqoPoolSizeFor(int relations) {
        if (geqoPoolSize >= 2) {
            return geqoPoolSize;
        }
        double size = Math.pow(2.0, relations + 1.0);
        int maxSize = 50 * geqoEffort;
        if (size > maxSize) {
            return maxSize;
        }
        int minSize = 10 * geqoEffort;
        return size < minSize ? minSize : (int) Math.ceil(size);
    }

    /** GEQO's generations for a pool, as {@code gimme_number_generations}: the setting, else the pool size. */
    public int geqoGenerationsFor(int poolSize) {
        return geqoGenerations > 0 ? geqoGenerations : poolSize;
    }

    /** PostgreSQL's {@code parse_bool_with_len} (src/backend/utils/adt/bool.c). */
    private static boolean parseBool(String text) {
        String v = text.toLowerCase(Locale.ROOT);
        if (!v.isEmpty()) {
            switch (v.charAt(0)) {
                case 't' -> {
                    if ("true".startsWith(v)) {
                        return true;
                    }
                }
                case 'f' -> {
                    if ("false".startsWith(v)) {
                        return false;
                    }
                }
                case 'y' -> {
                    if ("yes".startsWith(v)) {
                        return true;
                    }
                }
                case 'n' -> {
                    if ("no".startsWith(v)) {
                        return false;
                    }
                }
                case 'o' -> {
                    // "o" alone is ambiguous; "on" and "of"/"off" are not
                    if (v.equals("on")) {
                        return true;
                    }
                    if (v.length() >= 2 && "off".startsWith(v)) {
                        return false;
                    }
                }
                case '1' -> {
                    if (v.length() == 1) {
                        return true;
                    }
                }
                case '0' -> {
                    if (v.length() == 1) {
                        return false;
                    }
                }
                default -> {
                }
            }
        }
        throw new IllegalArgumentException("not a boolean: " + text);
    }

    /**
     * PostgreSQL's {@code parse_int} (src/backend/utils/misc/guc.c) for a setting without units: strtol
     * with base 0 (decimal, 0x hex, leading-0 octal); if that stops at '.', 'e' or 'E' the whole text
     * is re-read as a decimal and rounded half to even (rint). Anything else left over is an error.
     * Surrounding white space is allowed, as strtol and the unit check allow it.
     */
    private static int parseInt(String setting) {
        String text = setting.strip();
        int i = text.startsWith("+") || text.startsWith("-") ? 1 : 0;
        int digitsStart = i;
        int radix = 10;
        if (text.regionMatches(true, i, "0x", 0, 2) && i + 2 < text.length()
                && Character.digit(text.charAt(i + 2), 16) >= 0) {
            radix = 16;
            i += 2;
            digitsStart = i;
        } else if (i < text.length() && text.charAt(i) == '0') {
            radix = 8;
        }
        while (i < text.length() && Character.digit(text.charAt(i), radix) >= 0) {
            i++;
        }
        double value;
        if (i == text.length() && i > digitsStart) {
            value = new BigInteger(text.substring(digitsStart), radix).doubleValue();
            value = text.startsWith("-") ? -value : value;
        } else if (i < text.length() && ".eE".indexOf(text.charAt(i)) >= 0
                && DECIMAL.matcher(text).matches()) {
            value = Math.rint(Double.parseDouble(text));
        } else {
            throw new IllegalArgumentException("not an integer: " + text);
        }
        if (value > Integer.MAX_VALUE || value < Integer.MIN_VALUE) {
            throw new IllegalArgumentException("out of range: " + text);
        }
        return (int) value;
    }

    private static void check(String field, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(field + " must be in " + min + ".." + max + ", was " + value);
        }
    }
}
