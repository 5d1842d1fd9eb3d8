package io.memogate.estimator.lexer;

/**
 * scan.l's {operator} rule
 * (<a href="https://www.postgresql.org/docs/current/sql-syntax-lexical.html#SQL-SYNTAX-OPERATORS">4.1.3</a>):
 * the longest run of operator characters, cut before an embedded {@code --} or {@code /*} (a comment
 * starts there), then stripped of trailing {@code +} and {@code -} unless the run holds one of
 * {@code ~ ! @ # % ^ & | ` ?}: "This restriction allows PostgreSQL to parse SQL-compliant queries without
 * requiring spaces between tokens" ({@code x=-1}). A lone {@code ?} left by these rules is a placeholder;
 * see {@link SqlLexer}. The sign rule and the placeholder are PostgreSQL's, taken where the dialect's
 * {@link LexicalRules} say so; the cut before a comment is every dialect's.
 */
final class OperatorScanner {

    private OperatorScanner() {
    }

    static boolean operator(SqlLexer lexer, char[] s, int n, int start) {
        int q = start + 1;
        while (q < n && lexer.isOperatorChar(s[q])) {
            q++;
        }
        if (q - start > 1) {
            for (int i = start + 1; i < q - 1; i++) {
                char a = s[i];
                char b = s[i + 1];
                if ((a == '/' && b == '*') || (a == '-' && b == '-')) {
                    q = i;
                    break;
                }
            }
            char last = s[q - 1];
            if (lexer.operatorSignRule && q - start > 1 && (last == '+' || last == '-')
                    && !hasNonSqlOperatorChar(s, start, q - 1)) {
                do {
                    q--;
                } while (q - start > 1 && (s[q - 1] == '+' || s[q - 1] == '-'));
            }
        }
        if (lexer.placeholders && q - start == 1 && s[start] == '?') {
            return lexer.emit(TokenKind.PLACEHOLDER, start, q);
        }
        return lexer.emit(TokenKind.OPERATOR, start, q);
    }

    private static boolean hasNonSqlOperatorChar(char[] s, int from, int to) {
        for (int i = from; i < to; i++) {
            switch (s[i]) {
                case '~', '!', '@', '#', '^', '&', '|', '`', '?', '%':
                    return true;
                default:
                    break;
            }
        }
        return false;
    }
}
