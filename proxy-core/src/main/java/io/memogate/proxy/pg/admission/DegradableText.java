package io.memogate.proxy.pg.admission;

import io.memogate.proxy.admission.Words;
import java.util.List;

/**
 * Whether a statement text may run under tighter planner settings, in the transaction block the wing wraps it in
 * ({@code io.memogate.proxy.pg.session.DegradedRuns}).
 */
public final class DegradableText {

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
        return !namesTheSettings(sql);
    }

    /**
     * Whether {@code sql} names a setting a degraded statement runs under (collapse_limit, geqo, partitionwise) or
     * set_config, in any case. Every simple Query outside a block passes here on its event loop: one pass with a
     * first-letter test per character, not a lower-case copy of the text or one pass per name.
     */
    private static boolean namesTheSettings(String sql) {
        int last = sql.length() - "geqo".length(); // the shortest
        for (int i = 0; i <= last; i++) {
            // ASCII letters to lower case; two letters before comparing the rest, as most words of a text begin
            // with one of these four
            int next = sql.charAt(i + 1) | 0x20;
            boolean named = switch (sql.charAt(i) | 0x20) {
                case 'c' -> next == 'o' && Words.restMatches(sql, i, "collapse_limit");
                case 'g' -> next == 'e' && Words.restMatches(sql, i, "geqo");
                case 'p' -> next == 'a' && Words.restMatches(sql, i, "partitionwise");
                case 's' -> next == 'e' && Words.restMatches(sql, i, "set_config");
                default -> false;
            };
            if (named) {
                return true;
            }
        }
        return false;
    }
}
