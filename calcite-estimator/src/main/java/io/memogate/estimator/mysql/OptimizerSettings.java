package io.memogate.estimator.mysql;

import io.memogate.estimator.dialect.DialectSettings;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The variables of MySQL's and MariaDB's join optimizer that a session can change and the estimate depends on
 * (<a href="https://mariadb.com/kb/en/server-system-variables/#optimizer_search_depth">optimizer_search_depth</a>,
 * <a href="https://mariadb.com/kb/en/server-system-variables/#optimizer_prune_level">optimizer_prune_level</a>,
 * <a href="https://mariadb.com/kb/en/optimizer-switch/">optimizer_switch</a>). Immutable, equal by value.
 *
 * @param searchDepth optimizer_search_depth, 0 to 62: how many tables deep the greedy search looks before it
 *     fixes one; 0 lets the server choose (7, or all the tables when there are at most 7)
 * @param pruneLevel optimizer_prune_level: 0 searches every order the cost bound leaves, 1 and 2 (MariaDB)
 *     keep only promising extensions
 * @param switches the optimizer_switch flags that are set, by name; a flag not here has its default
 */
public record OptimizerSettings(int searchDepth, int pruneLevel, Map<String, Boolean> switches)
        implements DialectSettings {

    /** The variables {@link #with} reads. */
    public static final Set<String> NAMES = Set.of("optimizer_search_depth", "optimizer_prune_level",
            "optimizer_switch");
    public static final int MAX_SEARCH_DEPTH = 62;
    /** MariaDB 10.10 and later: search depth 62, prune level 2, every flag at its default. */
    public static final OptimizerSettings MARIADB_DEFAULTS = new OptimizerSettings(MAX_SEARCH_DEPTH, 2, Map.of());
    /** MySQL 8: search depth 62, prune level 1. */
    public static final OptimizerSettings MYSQL_DEFAULTS = new OptimizerSettings(MAX_SEARCH_DEPTH, 1, Map.of());

    public OptimizerSettings {
        if (searchDepth < 0 || searchDepth > MAX_SEARCH_DEPTH || pruneLevel < 0 || pruneLevel > 2) {
            throw new IllegalArgumentException("optimizer_search_depth must be in 0..62 and optimizer_prune_level in"
                    + " 0..2, were " + searchDepth + " and " + pruneLevel);
        }
        switches = Map.copyOf(new TreeMap<>(switches));
    }

    /** Whether optimizer_switch has {@code flag} on; {@code byDefault} when the flag was never set. */
    public boolean switchOn(String flag, boolean byDefault) {
        return switches.getOrDefault(flag, byDefault);
    }

    /**
     * The search depth the server uses for {@code tables} tables ({@code determine_search_depth} in
     * sql/sql_select.cc): the setting, or for 0 all of them plus one up to 7 tables and 7 above.
     */
    public int depthFor(int tables) {
        if (searchDepth > 0) {
            return searchDepth;
        }
        return tables <= 7 ? tables + 1 : 7;
    }

    /**
     * These settings after {@code SET name = value}. Numbers out of range are clamped as the server clamps them
     * (with a warning); a value it would refuse, and a variable not read here, change nothing.
     * {@code default} gives MariaDB's built-in value; optimizer_switch takes a comma-separated list of
     * {@code flag=on|off|default}, each changing that flag alone, or {@code default} for all of them.
     */
    @Override
    public OptimizerSettings with(String name, String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "optimizer_search_depth" -> v.equals("default")
                    ? new OptimizerSettings(MARIADB_DEFAULTS.searchDepth, pruneLevel, switches)
                    : number(v).map(n -> new OptimizerSettings(clamp(n, MAX_SEARCH_DEPTH), pruneLevel, switches))
                            .orElse(this);
            case "optimizer_prune_level" -> v.equals("default")
                    ? new OptimizerSettings(searchDepth, MARIADB_DEFAULTS.pruneLevel, switches)
                    : number(v).map(n -> new OptimizerSettings(searchDepth, clamp(n, 2), switches)).orElse(this);
            case "optimizer_switch" -> withSwitches(v);
            default -> this;
        };
    }

    private OptimizerSettings withSwitches(String list) {
        if (list.equals("default")) {
            return new OptimizerSettings(searchDepth, pruneLevel, Map.of());
        }
        Map<String, Boolean> next = new TreeMap<>(switches);
        for (String item : list.split(",")) {
            String[] flag = item.trim().split("=", 2);
            if (flag.length != 2 || flag[0].isBlank()) {
                return this; // the server refuses the whole SET
            }
            String state = flag[1].trim();
            switch (state) {
                case "on" -> next.put(flag[0].trim(), true);
                case "off" -> next.put(flag[0].trim(), false);
                case "default" -> next.remove(flag[0].trim());
                default -> {
                    return this;
                }
            }
        }
        return new OptimizerSettings(searchDepth, pruneLevel, next);
    }

    private static Optional<Long> number(String v) {
        try {
            return Optional.of(Long.parseLong(v));
        } catch (NumberFormatException e) {
            return Optional.empty(); // not a number: the server refuses it and keeps the old value
        }
    }

    private static int clamp(long n, int max) {
        return (int) Math.max(0, Math.min(max, n));
    }
}
