package io.memogate.estimator.lexer;

import java.util.Arrays;

/**
 * The quoted forms of SQL text: string constants, quoted identifiers and dollar quotes, as PostgreSQL reads
 * them (<a href="https://www.postgresql.org/docs/current/sql-syntax-lexical.html#SQL-SYNTAX-CONSTANTS">4.1.2</a>),
 * with the forms a dialect's {@link LexicalRules} turn on or off. Each method scans one token starting at
 * {@code start} and hands it to the lexer.
 */
final class QuotedScanner {

    /** {@code '...'}, {@code N'...'}, {@code U&'...'}: {@code ''} is a quote. */
    static final int STANDARD = LexicalRules.StringForm.STANDARD.ordinal();
    /** {@code E'...'}: {@code ''} or backslash-anything. */
    static final int ESCAPE = LexicalRules.StringForm.ESCAPE.ordinal();
    /** {@code B'...'}, {@code X'...'}: the first quote ends the body (scan.l's xb/xh states have no {@code ''}). */
    static final int BITS = LexicalRules.StringForm.BITS.ordinal();

    private QuotedScanner() {
    }

    static boolean string(SqlLexer lexer, char[] s, int n, int start, int body, int mode, TokenKind kind) {
        return string(lexer, s, n, start, body, mode, kind, '\'');
    }

    /** A string quoted by {@code quote} ({@code '}, or MySQL's {@code "}), doubled for itself. */
    static boolean string(SqlLexer lexer, char[] s, int n, int start, int body, int mode, TokenKind kind,
                          char quote) {
        int p = body;
        while (true) {
            int close = closingQuote(s, n, p, mode, quote);
            if (close < 0) {
                return lexer.emit(TokenKind.UNTERMINATED, start, n);
            }
            int next = lexer.stringContinuation ? continuation(s, n, close + 1) : -1;
            if (next < 0) {
                return lexer.emit(kind, start, close + 1);
            }
            p = next + 1;
        }
    }

    /** Index of the quote ending a string body that starts at p, or -1. */
    private static int closingQuote(char[] s, int n, int p, int mode, char quote) {
        if (mode == ESCAPE) {
            while (p < n) {
                char c = s[p];
                if (c == '\\') {
                    p += 2;
                } else if (c != quote) {
                    p++;
                } else if (p + 1 < n && s[p + 1] == quote) {
                    p += 2;
                } else {
                    return p;
                }
            }
            return -1;
        }
        while (true) {
            int q = SqlLexer.indexOf(s, quote, p, n);
            if (q < 0 || q >= n) {
                return -1;
            }
            if (mode == STANDARD && q + 1 < n && s[q + 1] == quote) {
                p = q + 2;
            } else {
                return q;
            }
        }
    }

    /**
     * Where a string continues after its closing quote: "two string constants that are only separated by
     * whitespace with at least one newline are concatenated" (4.1.2.1). Only whitespace and {@code --}
     * comments may stand between them (scan.l's whitespace_with_newline). Returns the continuing quote's
     * index, or -1.
     */
    private static int continuation(char[] s, int n, int p) {
        boolean newline = false;
        while (p < n) {
            char c = s[p];
            if (c == '\n' || c == '\r') {
                newline = true;
                p++;
            } else if (c == ' ' || c == '\t' || c == '\f' || c == '\u000B') {
                p++;
            } else if (c == '-' && p + 1 < n && s[p + 1] == '-') {
                p += 2;
                while (p < n && s[p] != '\n' && s[p] != '\r') {
                    p++;
                }
            } else {
                break;
            }
        }
        return newline && p < n && s[p] == '\'' ? p : -1;
    }

    /**
     * {@code "..."}, {@code U&"..."}, {@code `...`} or T-SQL's {@code [...]}, closed by {@code quote}: the
     * closing quote doubled is one inside.
     */
    static boolean identifier(SqlLexer lexer, char[] s, int n, int start, int body, char quote) {
        int p = body;
        while (true) {
            int q = SqlLexer.indexOf(s, quote, p, n);
            if (q < 0 || q >= n) {
                return lexer.emit(TokenKind.UNTERMINATED, start, n);
            }
            if (q + 1 < n && s[q + 1] == quote) {
                p = q + 2;
            } else {
                return lexer.emit(TokenKind.QUOTED_IDENT, start, q + 1);
            }
        }
    }

    /**
     * A token starting with {@code $}: a parameter {@code $1}, a dollar quote {@code $tag$...$tag$}
     * (4.1.2.4: the tag "follows the same rules as an unquoted identifier, except that it cannot contain a
     * dollar sign"), or else a lone {@code $}, which PostgreSQL rejects.
     */
    static boolean dollar(SqlLexer lexer, char[] s, int n, int start) {
        int p = start + 1;
        if (p < n && SqlLexer.isDigit(s[p])) {
            return lexer.emit(TokenKind.PARAM, start, NumberScanner.decimalInteger(s, n, p));
        }
        if (p < n && s[p] != '$') {
            if (!lexer.isIdentifierStart(s[p])) {
                return lexer.emit(TokenKind.OTHER, start, start + 1);
            }
            p++;
            while (p < n && lexer.isTagPart(s[p])) {
                p++;
            }
        }
        if (p >= n || s[p] != '$') {
            return lexer.emit(TokenKind.OTHER, start, start + 1);
        }
        int delimiter = p + 1 - start;
        for (int q = p + 1; ; q++) {
            q = SqlLexer.indexOf(s, '$', q, n);
            if (q < 0 || q + delimiter > n) {
                return lexer.emit(TokenKind.UNTERMINATED, start, n);
            }
            if (Arrays.equals(s, q, q + delimiter, s, start, start + delimiter)) {
                return lexer.emit(TokenKind.DOLLAR_STRING, start, q + delimiter);
            }
        }
    }
}
