package io.memogate.proxy.pg.admission;

import java.util.List;
import java.util.Locale;

/**
 * Whether a statement text may run under tighter planner settings: in the transaction block the wing wraps it in,
 * in the client's own, or at a Bind ({@code io.memogate.proxy.pg.session.DegradedRuns}).
 */
public final class DegradableText {

    /** The settings a degraded statement runs under, and set_config: a text that names one is never degraded. */
    private static final List<String> NAMES = List.of("collapse_limit", "geqo", "partitionwise", "set_config");
    /** Statements that run the same inside a transaction block as in their own: those that may be degraded. */
    private static final List<String> FIRST_WORDS = List.of("select", "with", "values", "table", "insert",
            "update", "delete", "merge", "explain");
    /**
     * Of those, the ones the server plans at Bind: an EXPLAIN, a utility statement, plans its query when it is
     * executed, after the settings are restored behind the Bind.
     */
    private static final List<String> PLANNED_AT_BIND = FIRST_WORDS.subList(0, FIRST_WORDS.size() - 1);

    private DegradableText() {
    }

    /**
     * True for one of the statements that behave the same inside a block ({@code DECLARE} would keep its cursor
     * there, {@code VACUUM} would fail) whose text does not name the settings (it would set them itself, or read
     * them).
     */
    public static boolean mayDegrade(String sql) {
        return mayDegrade(sql, FIRST_WORDS);
    }

    /** {@link #mayDegrade}, for a prepared statement's text at its Bind: one the server plans there. */
    public static boolean mayDegradeAtBind(String sql) {
        return mayDegrade(sql, PLANNED_AT_BIND);
    }

    private static boolean mayDegrade(String sql, List<String> firstWords) {
        if (!TransactionWords.firstWordIsOneOf(sql, firstWords)) {
            return false;
        }
        String lower = sql.toLowerCase(Locale.ROOT);
        return NAMES.stream().noneMatch(lower::contains);
    }
}
