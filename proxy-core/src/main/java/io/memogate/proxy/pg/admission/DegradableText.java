package io.memogate.proxy.pg.admission;

import io.memogate.proxy.admission.Words;
import java.util.List;

/**
 * Whether a statement text may run under tighter planner settings: in the transaction block the wing wraps it in,
 * in the client's own, or at a Bind ({@code io.memogate.proxy.pg.session.DegradedRuns}).
 */
public final class DegradableText {

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
        return !namesTheSettings(sql);
    }

    /**
     * Whether {@code sql} names a setting a degraded statement runs under (collapse_limit, geqo, partitionwise,
     * memoize) or set_config, in any case. Every statement that may be degraded passes here on its event loop: one
     * pass with a first-letter test per character, not a lower-case copy of the text or one pass per name.
     */
    private static boolean namesTheSettings(String sql) {
        int last = sql.length() - "geqo".length(); // the shortest
        for (int i = 0; i <= last; i++) {
            // ASCII letters to lower case; two letters before comparing the rest, as most words of a text begin
            // with one of these five
            int next = sql.charAt(i + 1) | 0x20;
            boolean named = switch (sql.charAt(i) | 0x20) {
                case 'c' -> next == 'o' && Words.restMatches(sql, i, "collapse_limit");
                case 'g' -> next == 'e' && Words.restMatches(sql, i, "geqo");
                case 'm' -> next == 'e' && Words.restMatches(sql, i, "memoize");
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
