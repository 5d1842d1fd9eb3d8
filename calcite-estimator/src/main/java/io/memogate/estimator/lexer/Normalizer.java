package io.memogate.estimator.lexer;

/**
 * Writes the normalized form of a statement's tokens into a {@link Hasher} and, for display, a
 * StringBuilder. The same method produces both, so {@code hash == Fingerprint.hashOf(text)} always.
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

    private static final String COLLAPSED = "?...";
    private static final String MORE_ROWS = "...";

    private final TokenStream ts;
    private final int to;
    private final StringBuilder out;
    private final Hasher hasher = new Hasher(Hasher.NORMALIZED_SEED);
    private boolean glue = true;
    /** Elements of the last list {@link #constantList} accepted. */
    private int elements;

    private Normalizer(TokenStream ts, int to, StringBuilder out) {
        this.ts = ts;
        this.to = to;
        this.out = out;
    }

    static long hash(TokenStream ts, int from, int to) {
        Normalizer n = new Normalizer(ts, to, null);
        n.run(from);
        return n.hasher.finish();
    }

    static String text(TokenStream ts, int from, int to) {
        StringBuilder out = new StringBuilder();
        new Normalizer(ts, to, out).run(from);
        return out.toString();
    }

    private void run(int from) {
        int i = from;
        while (i < to) {
            i = piece(from, i);
        }
    }

    /** Writes what starts at token i; returns the index after it. */
    private int piece(int from, int i) {
        TokenKind kind = ts.kind(i);
        switch (kind) {
            case LPAREN -> {
                if (i > from && ts.is(i - 1, Keyword.IN)) {
                    int close = constantList(i + 1, TokenKind.RPAREN);
                    if (close >= 0) {
                        collapsedList(TokenKind.LPAREN, '(', ')');
                        return close + 1;
                    }
                }
            }
            case LBRACKET -> {
                if (i > from && ts.is(i - 1, Keyword.ARRAY)) {
                    int close = constantList(i + 1, TokenKind.RBRACKET);
                    if (close >= 0) {
                        collapsedList(TokenKind.LBRACKET, '[', ']');
                        return close + 1;
                    }
                }
            }
            case IDENT -> {
                if (ts.keyword(i) == Keyword.VALUES && at(i + 1, TokenKind.LPAREN)) {
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
            case OPERATOR -> {
                if (isSign(i) && at(i + 1, TokenKind.NUMBER) && unaryPosition(from, i)) {
                    constant();
                    return i + 2;
                }
            }
            default -> { }
        }
        if (kind.isConstant()) {
            constant();
        } else {
            begin(kind);
            hashRaw(ts.start(i), ts.end(i));
        }
        return i + 1;
    }

    /** The index of the closing token if tokens from i are {@code c (, c)* close}, else -1. */
    private int constantList(int i, TokenKind close) {
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
            if (!at(after, TokenKind.COMMA)) {
                return -1;
            }
            i = after + 1;
        }
    }

    private int constantEnd(int i) {
        if (i >= to) {
            return -1;
        }
        if (ts.kind(i).isConstant()) {
            return i + 1;
        }
        return isSign(i) && at(i + 1, TokenKind.NUMBER) ? i + 2 : -1;
    }

    /** From the first row's parenthesis: the index after the last row if every row is constants, else -1. */
    private int rows(int i) {
        int arity = -1;
        while (true) {
            int close = constantList(i + 1, TokenKind.RPAREN);
            if (close < 0) {
                return -1;
            }
            if (arity < 0) {
                arity = elements;
            }
            if (at(close + 1, TokenKind.COMMA) && at(close + 2, TokenKind.LPAREN)) {
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
        return switch (ts.kind(i - 1)) {
            case LPAREN, LBRACKET, COMMA, OPERATOR -> true;
            case IDENT -> switch (ts.keyword(i - 1)) {
                case SELECT, WHERE, AND, OR, NOT, THEN, ELSE, WHEN, CASE, BETWEEN, LIMIT, OFFSET, ON, HAVING,
                        RETURNING, TO, DEFAULT -> true;
                default -> false;
            };
            default -> false;
        };
    }

    private boolean isSign(int i) {
        if (!at(i, TokenKind.OPERATOR) || ts.end(i) - ts.start(i) != 1) {
            return false;
        }
        char c = ts.chars()[ts.start(i)];
        return c == '-' || c == '+';
    }

    private boolean at(int i, TokenKind kind) {
        return i < to && ts.is(i, kind);
    }

    private void word(int i) {
        begin(TokenKind.IDENT);
        char[] s = ts.chars();
        int start = ts.start(i);
        int end = ts.end(i);
        hasher.put(s, start, end, true);
        if (out != null) {
            for (int p = start; p < end; p++) {
                out.append(Keyword.lower(s[p]));
            }
        }
    }

    private void constant() {
        begin(TokenKind.NUMBER);
        put('?');
    }

    private void collapsedList(TokenKind open, char openChar, char closeChar) {
        begin(open);
        put(openChar);
        putAll(COLLAPSED);
        put(closeChar);
        glue = false;
    }

    private void collapsedRows() {
        begin(TokenKind.LPAREN);
        put('(');
        for (int k = 0; k < elements; k++) {
            putAll(k == 0 ? "?" : ", ?");
        }
        putAll("), ");
        putAll(MORE_ROWS);
        glue = false;
    }

    private void hashRaw(int start, int end) {
        hasher.put(ts.chars(), start, end, false);
        if (out != null) {
            out.append(ts.chars(), start, end - start);
        }
    }

    /** Writes the separator that goes before a token of this kind (tables: one load instead of a switch). */
    private void begin(TokenKind kind) {
        if (!glue && !GLUE_BEFORE[kind.ordinal()]) {
            put(' ');
        }
        glue = GLUE_AFTER[kind.ordinal()];
    }

    private static boolean[] kinds(TokenKind... kinds) {
        boolean[] table = new boolean[TokenKind.values().length];
        for (TokenKind k : kinds) {
            table[k.ordinal()] = true;
        }
        return table;
    }

    private void putAll(String s) {
        for (int k = 0; k < s.length(); k++) {
            put(s.charAt(k));
        }
    }

    private void put(char c) {
        hasher.put(c);
        if (out != null) {
            out.append(c);
        }
    }
}
