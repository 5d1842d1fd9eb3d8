package io.memogate.proxy.pg.admission;

import io.memogate.proxy.admission.Words;
import java.util.List;

/**
 * Whether a statement text may run under tighter planner settings, in the transaction block the wing wraps it in
 * ({@code io.memogate.proxy.pg.session.DegradedRuns}).
 */
public final class DegradableText {

    /** The settings a degraded statement runs under, and set_config: a text that names one is never degraded. */
    private static final List<String> NAMES = List.of("collapse_limit", "geqo", "partitionwise", "set_config");
    /** Statements that run the same inside a transaction block as in their own: those that may be degraded. */
    private static final List<String> FIRST_WORDS = List.of("select", "with", "values", "table", "insert",
            "update", "delete", "merge", "explain");

    private DegradableText() {
    }

    /**
     * True for one of the statements that behave the same inside a block ({@code DECLARE} would keep its cursor
     * there, {@code VACUUM} would fail) whose text does not name the settings (it would set them itself, or read
     * them).
     */
    public static boolean mayDegrade(String sql) {
        if (!TransactionWords.firstWordIsOneOf(sql, FIRST_WORDS)) {
            return false;
        }
        // Sought in place: a lower-case copy and a stream made 240 bytes for each Query.
        for (int i = 0; i < NAMES.size(); i++) {
            if (Words.containsIgnoreCase(sql, NAMES.get(i))) {
                return false;
            }
        }
        return true;
    }
}
