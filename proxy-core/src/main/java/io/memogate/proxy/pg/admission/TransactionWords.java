package io.memogate.proxy.pg.admission;

import java.util.List;

/**
 * A scan of a text's first word for a statement that may open or end a transaction block (BEGIN, START
 * TRANSACTION, COMMIT, END, ROLLBACK, ABORT), so that only those few texts are lexed to follow the block.
 * Drivers pipeline a BEGIN with the statements after it (pgjdbc sends BEGIN, a SET LOCAL and a query before one
 * Sync): the server's ReadyForQuery says "in a block" only after all of them, while a SET LOCAL among them already
 * counts for the rest.
 */
public final class TransactionWords {

    private static final List<String> FIRST_WORDS = List.of("begin", "start", "commit", "end", "rollback", "abort");

    private TransactionWords() {
    }

    /** Whether {@code sql} starts with one of the words, or with a comment that may hide one (lexing decides). */
    public static boolean mayOpenOrEnd(String sql) {
        int i = 0;
        int length = sql.length();
        while (i < length && Character.isWhitespace(sql.charAt(i))) {
            i++;
        }
        if (sql.startsWith("/*", i) || sql.startsWith("--", i)) {
            return true;
        }
        for (String word : FIRST_WORDS) {
            int end = i + word.length();
            if (sql.regionMatches(true, i, word, 0, word.length())
                    && (end == length || !Character.isLetterOrDigit(sql.charAt(end)) && sql.charAt(end) != '_')) {
                return true;
            }
        }
        return false;
    }
}
