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

    /** Where the first word starts: after white space, {@code --} line comments and (nested) block comments. */
    private static int firstWord(String sql) {
        int i = 0;
        int length = sql.length();
        while (i < length) {
            if (Character.isWhitespace(sql.charAt(i))) {
                i++;
            } else if (sql.startsWith("--", i)) {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? length : end + 1;
            } else if (sql.startsWith("/*", i)) {
                i = afterBlockComment(sql, i);
            } else {
                break;
            }
        }
        return i;
    }

    /** The index after the block comment opening at {@code start}; PostgreSQL's block comments nest. */
    private static int afterBlockComment(String sql, int start) {
        int depth = 0;
        int i = start;
        while (i < sql.length() - 1) {
            if (sql.startsWith("/*", i)) {
                depth++;
                i += 2;
            } else if (sql.startsWith("*/", i)) {
                i += 2;
                if (--depth == 0) {
                    return i;
                }
            } else {
                i++;
            }
        }
        return sql.length();
    }

    /**
     * Whether {@code sql}'s first word, after white space and comments, is one of the words. Comments are skipped
     * here rather than left to the lexer: applications that prefix every statement with one (query tags, hints)
     * would otherwise have every statement lexed.
     */
    public static boolean mayOpenOrEnd(String sql) {
        return firstWordIsOneOf(sql, FIRST_WORDS);
    }

    /** Whether {@code sql}'s first word, after white space and comments, is one of {@code words} (lower case). */
    public static boolean firstWordIsOneOf(String sql, List<String> words) {
        int i = firstWord(sql);
        int length = sql.length();
        if (i == length) {
            return false;
        }
        int first = sql.charAt(i) | 0x20; // ASCII letters to lower case: the words' first letters are ASCII
        for (int w = 0; w < words.size(); w++) { // indexed: no iterator for each statement
            String word = words.get(w);
            int end = i + word.length();
            // The first letter before regionMatches: each statement passes here two or three times, with a list each
            if (first == word.charAt(0) && sql.regionMatches(true, i, word, 0, word.length())
                    && (end == length || !Character.isLetterOrDigit(sql.charAt(end)) && sql.charAt(end) != '_')) {
                return true;
            }
        }
        return false;
    }
}
