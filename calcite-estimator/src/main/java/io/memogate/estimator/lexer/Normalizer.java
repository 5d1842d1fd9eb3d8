package io.memogate.estimator.lexer;

import java.util.Arrays;

/**
 * Writes the normalized form of a statement's tokens into a char buffer that the token stream keeps for
 * reuse, then hashes the buffer in one pass or makes it the display text. The hash is therefore
 * {@code Fingerprint.hashOf(text)} by construction, and the per-token work is plain char stores: the
 * hasher's state is not loaded and stored again for every token.
 *
 * <p>The form: one space between tokens, none after {@code ( [ . ::} and none before
 * {@code ) ] , . :: [ ;}; unquoted identifiers and key words in lower case (ASCII, as PostgreSQL folds
 * them); quoted identifiers, operators and punctuation as written; every constant and parameter as
 * {@code ?}, a sign in front of a number included where the sign cannot be a binary operator (after
 * {@code ( [ ,}, an operator or a clause word: the grammar folds it into the constant). Then three lists
 * whose length is not structure collapse, as pg_stat_statements squashes them in PostgreSQL 18:
 * {@code IN (c, ...)} becomes {@code in (?...)}, {@code ARRAY[c, ...]} becomes {@code array[?...]}, and
 * {@code VALUES (c, ...), (c, ...)} keeps the first row's arity as {@code values (?, ?), ...}, so inserts of
 * 1 and 1000 rows share a key. Only lists of nothing but constants collapse; a function's arguments
 * ({@code f(1, 2)}) and row constructors keep their arity.
 */
final class Normalizer {

    /** Kinds with no space before them, and kinds with none after them. */
    private static final boolean[] GLUE_BEFORE = kinds(TokenKind.RPAREN, TokenKind.RBRACKET, TokenKind.COMMA,
            TokenKind.DOT, TokenKind.TYPECAST, TokenKind.LBRACKET, TokenKind.SEMICOLON);
    private static final boolean[] GLUE_AFTER = kinds(TokenKind.LPAREN, TokenKind.LBRACKET, TokenKind.DOT,
            TokenKind.TYPECAST);
    /** Kinds a sign before a number may follow and still be unary, and clause words likewise. */
    private static final boolean[] UNARY_AFTER_KIND = kinds(TokenKind.LPAREN, TokenKind.LBRACKET, TokenKind.COMMA,
            TokenKind.OPERATOR);
    private static final boolean[] UNARY_AFTER_WORD = words(Keyword.SELECT, Keyword.WHERE, Keyword.AND, Keyword.OR,
            Keyword.NOT, Keyword.THEN, Keyword.ELSE, Keyword.WHEN, Keyword.CASE, Keyword.BETWEEN, Keyword.LIMIT,
            Keyword.OFFSET, Keyword.ON, Keyword.HAVING, Keyword.RETURNING, Keyword.TO, Keyword.DEFAULT);
    private static final boolean[] CONSTANT = constants();

    // Kind and word ordinals as the token stream stores them (static finals: constants to the compiler).
    private static final int IDENT = TokenKind.IDENT.ordinal();
    private static final int NUMBER = TokenKind.NUMBER.ordinal();
    private static final int OPERATOR = TokenKind.OPERATOR.ordinal();
    private static final int LPAREN = TokenKind.LPAREN.ordinal();
    private static final int RPAREN = TokenKind.RPAREN.ordinal();
    private static final int LBRACKET = TokenKind.LBRACKET.ordinal();
    private static final int RBRACKET = TokenKind.RBRACKET.ordinal();
    private static final int COMMA = TokenKind.COMMA.ordinal();
    private static final int IN = Keyword.IN.ordinal();
    private static final int ARRAY = Keyword.ARRAY.ordinal();
    private static final int VALUES = Keyword.VALUES.ordinal();

    private static final String COLLAPSED = "?...";
    private static final String MORE_ROWS = "...";

    // The stream's arrays, read directly: this pass touches every token.
    private final byte[] kinds;
    private final short[] words;
    private final int[] starts;
    private final int[] ends;
    private final char[] chars;
    private final int to;
    private char[] out;
    private int length;
    private boolean glue = true;
    /** Elements of the last list {@link #constantList} accepted. */
    private int elements;

    private Normalizer(TokenStream ts, int to) {
        this.kinds = ts.kinds();
        this.words = ts.words();
        this.starts = ts.starts();
        this.ends = ts.ends();
        this.chars = ts.chars();
        this.to = Math.min(to, ts.size());
        this.out = ts.normalizedBuffer();
    }

    static long hash(TokenStream ts, int from, int to) {
        Normalizer n = new Normalizer(ts, to);
        n.run(ts, from);
        return Hasher.hash(Hasher.NORMALIZED_SEED, n.out, n.length);
    }

    static String text(TokenStream ts, int from, int to) {
        Normalizer n = new Normalizer(ts, to);
        n.run(ts, from);
        return new String(n.out, 0, n.length);
    }

    private void run(TokenStream ts, int from) {
        int i = from;
        while (i < to) {
            i = piece(from, i);
        }
        ts.keepNormalizedBuffer(out);
    }

    /** Writes what starts at token i; returns the index after it. */
    private int piece(int from, int i) {
        int kind = kinds[i];
        if (kind == IDENT) {
            if (words[i] == VALUES && at(i + 1, LPAREN)) {
                int end = rows(i + 1);
                if (end >= 0) {
                    word(i);
                    collapsedRows();
                    return end;
                }
            }
            word(i);
            return i + 1;
        }
        if (CONSTANT[kind]) {
            constant();
            return i + 1;
        }
        if (kind == LPAREN && i > from && words[i - 1] == IN) {
            int close = constantList(i + 1, RPAREN);
            if (close >= 0) {
                collapsedList(LPAREN, '(', ')');
                return close + 1;
            }
        } else if (kind == LBRACKET && i > from && words[i - 1] == ARRAY) {
            int close = constantList(i + 1, RBRACKET);
            if (close >= 0) {
                collapsedList(LBRACKET, '[', ']');
                return close + 1;
            }
        } else if (kind == OPERATOR && isSign(i) && at(i + 1, NUMBER) && unaryPosition(from, i)) {
            constant();
            return i + 2;
        }
        begin(kind);
        hashRaw(starts[i], ends[i]);
        return i + 1;
    }

    /** The index of the closing token if tokens from i are {@code c (, c)* close}, else -1. */
    private int constantList(int i, int close) {
        int count = 0;
        while (true) {
            int after = constantEnd(i);
            if (after < 0) {
                return -1;
            }
            count++;
            if (at(after, close)) {
                elements = count;
                return after;
            }
            if (!at(after, COMMA)) {
                return -1;
            }
            i = after + 1;
        }
    }

    private int constantEnd(int i) {
        if (i >= to) {
            return -1;
        }
        if (CONSTANT[kinds[i]]) {
            return i + 1;
        }
        return isSign(i) && at(i + 1, NUMBER) ? i + 2 : -1;
    }

    /** From the first row's parenthesis: the index after the last row if every row is constants, else -1. */
    private int rows(int i) {
        int arity = -1;
        while (true) {
            int close = constantList(i + 1, RPAREN);
            if (close < 0) {
                return -1;
            }
            if (arity < 0) {
                arity = elements;
            }
            if (at(close + 1, COMMA) && at(close + 2, LPAREN)) {
                i = close + 2;
            } else {
                elements = arity;
                return close + 1;
            }
        }
    }

    private boolean unaryPosition(int from, int i) {
        if (i == from) {
            return true;
        }
        int previous = kinds[i - 1];
        return UNARY_AFTER_KIND[previous] || previous == IDENT && UNARY_AFTER_WORD[words[i - 1]];
    }

    private boolean isSign(int i) {
        if (!at(i, OPERATOR) || ends[i] - starts[i] != 1) {
            return false;
        }
        char c = chars[starts[i]];
        return c == '-' || c == '+';
    }

    private boolean at(int i, int kind) {
        return i < to && kinds[i] == kind;
    }

    private void word(int i) {
        begin(IDENT);
        int start = starts[i];
        int end = ends[i];
        char[] o = reserve(end - start);
        int k = length;
        for (int p = start; p < end; p++) {
            o[k++] = Keyword.lower(chars[p]);
        }
        length = k;
    }

    private void constant() {
        begin(NUMBER);
        put('?');
    }

    private void collapsedList(int open, char openChar, char closeChar) {
        begin(open);
        put(openChar);
        putAll(COLLAPSED);
        put(closeChar);
        glue = false;
    }

    private void collapsedRows() {
        begin(LPAREN);
        put('(');
        for (int k = 0; k < elements; k++) {
            putAll(k == 0 ? "?" : ", ?");
        }
        putAll("), ");
        putAll(MORE_ROWS);
        glue = false;
    }

    private void hashRaw(int start, int end) {
        char[] o = reserve(end - start);
        int k = length;
        for (int p = start; p < end; p++) { // tokens of one or two chars: cheaper than arraycopy's stub
            o[k++] = chars[p];
        }
        length = k;
    }

    /** Writes the separator that goes before a token of this kind (tables: one load instead of a switch). */
    private void begin(int kind) {
        if (!glue && !GLUE_BEFORE[kind]) {
            put(' ');
        }
        glue = GLUE_AFTER[kind];
    }

    private static boolean[] kinds(TokenKind... kinds) {
        boolean[] table = new boolean[TokenKind.values().length];
        for (TokenKind k : kinds) {
            table[k.ordinal()] = true;
        }
        return table;
    }

    private static boolean[] words(Keyword... words) {
        boolean[] table = new boolean[Keyword.values().length];
        for (Keyword k : words) {
            table[k.ordinal()] = true;
        }
        return table;
    }

    private static boolean[] constants() {
        boolean[] table = new boolean[TokenKind.values().length];
        for (TokenKind k : TokenKind.values()) {
            table[k.ordinal()] = k.isConstant();
        }
        return table;
    }

    private void putAll(String s) {
        for (int k = 0; k < s.length(); k++) {
            put(s.charAt(k));
        }
    }

    private void put(char c) {
        reserve(1)[length++] = c;
    }

    /** The buffer, with room for n more chars. */
    private char[] reserve(int n) {
        if (length + n > out.length) {
            out = Arrays.copyOf(out, Math.max(out.length * 2, length + n));
        }
        return out;
    }
}
