package io.memogate.estimator.lexer;

import java.util.Arrays;

/**
 * Writes the normalized form of a statement token by token, as the lexer hands the tokens over, into a char
 * buffer that the token stream keeps for reuse; {@link #hash()} then hashes the buffer in one pass and
 * {@link #text()} makes it the display text. The hash is therefore {@code Fingerprint.hashOf(text)} by
 * construction, and the per-token work is plain char stores.
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
 *
 * <p>Whether a sign belongs to a number, or a list is all constants, shows only in later tokens. Instead of
 * looking ahead, the normalizer writes each token as it comes and remembers where the sign or the list
 * began; when the later token settles it, it rewinds the buffer there and writes the {@code ?} or the
 * collapsed list ({@link ConstantLists} follows the lists).
 */
final class Normalizer implements TokenSink {

    /** Kinds with no space before them, and kinds with none after them. */
    private static final boolean[] GLUE_BEFORE = TokenKind.table(TokenKind.RPAREN, TokenKind.RBRACKET,
            TokenKind.COMMA, TokenKind.DOT, TokenKind.TYPECAST, TokenKind.LBRACKET, TokenKind.SEMICOLON);
    private static final boolean[] GLUE_AFTER = TokenKind.table(TokenKind.LPAREN, TokenKind.LBRACKET,
            TokenKind.DOT, TokenKind.TYPECAST);
    /** Kinds a sign before a number may follow and still be unary, and clause words likewise. */
    private static final boolean[] UNARY_AFTER_KIND = TokenKind.table(TokenKind.LPAREN, TokenKind.LBRACKET,
            TokenKind.COMMA, TokenKind.OPERATOR);
    private static final boolean[] UNARY_AFTER_WORD = Keyword.table(Keyword.SELECT, Keyword.WHERE, Keyword.AND,
            Keyword.OR, Keyword.NOT, Keyword.THEN, Keyword.ELSE, Keyword.WHEN, Keyword.CASE, Keyword.BETWEEN,
            Keyword.LIMIT, Keyword.OFFSET, Keyword.ON, Keyword.HAVING, Keyword.RETURNING, Keyword.TO,
            Keyword.DEFAULT);
    private static final boolean[] CONSTANT = TokenKind.constants();

    // Kind and word ordinals as the lexer reports them (static finals: constants to the compiler).
    private static final int IDENT = TokenKind.IDENT.ordinal();
    private static final int NUMBER = TokenKind.NUMBER.ordinal();
    private static final int STRING = TokenKind.STRING.ordinal();
    private static final int OPERATOR = TokenKind.OPERATOR.ordinal();
    private static final int LPAREN = TokenKind.LPAREN.ordinal();
    private static final int RPAREN = TokenKind.RPAREN.ordinal();
    private static final int LBRACKET = TokenKind.LBRACKET.ordinal();
    private static final int RBRACKET = TokenKind.RBRACKET.ordinal();
    private static final int COMMA = TokenKind.COMMA.ordinal();
    private static final int NONE = Keyword.NONE.ordinal();
    private static final int IN = Keyword.IN.ordinal();
    private static final int ARRAY = Keyword.ARRAY.ordinal();
    private static final int ANY = Keyword.ANY.ordinal();
    private static final int VALUES = Keyword.VALUES.ordinal();
    /** No token yet: the statement's first token is in unary position and after no IN. */
    private static final int START = -1;

    private static final String COLLAPSED = "?...";
    private static final String MORE_ROWS = "...";

    private final TokenStream buffers;
    private final char[] chars;
    private final ConstantLists lists = new ConstantLists();
    private final boolean sizedLists;
    private char[] out;
    private int length;
    private boolean glue = true;
    private int previousKind = START;
    private int previousWord = NONE;
    /** Where the open list's replacement starts: after its opening character, or after VALUES. */
    private int listMark;
    /** Where a sign that a number may follow was written, and the glue before it; -1 when there is none. */
    private int signMark = -1;
    private boolean signGlue;
    /** Tokens given so far, and what the collapsed lists held (see {@link StatementSize}). */
    private int tokens;
    /** The index of the open list's first token after its opening one. */
    private int listStart;
    private int listElements;
    private int valueRows;
    private int valueCells;
    private int listTokens;
    /** The previous token is the parenthesis of {@code ANY (}: an array literal there is a list. */
    private boolean afterAny;

    /**
     * A normalizer of tokens of {@code chars}, writing into (and keeping) the buffer of {@code buffers}, sized
     * for the stream's text: {@code chars} may be a reused array longer than the text.
     */
    Normalizer(TokenStream buffers, char[] chars) {
        this.buffers = buffers;
        this.chars = chars;
        this.out = buffers.normalizedBuffer(buffers.text().length());
        this.sizedLists = buffers.rules() != null && buffers.rules().sizedListFingerprints;
    }

    /** Empties the output for the next statement. */
    void reset() {
        length = 0;
        glue = true;
        previousKind = START;
        previousWord = NONE;
        signMark = -1;
        lists.end();
        tokens = 0;
        afterAny = false;
        listElements = 0;
        valueRows = 0;
        valueCells = 0;
        listTokens = 0;
    }

    /** The statement's size as far as its tokens were given; call after its last token. */
    StatementSize size() {
        finish();
        return new StatementSize(tokens, listElements, valueRows, valueCells, listTokens);
    }

    /**
     * The cache key's size class of the statement ({@link StatementSize#sizeClass()}); call after its last
     * token.
     */
    int sizeClass() {
        finish();
        return StatementSize.sizeClass(listElements + valueCells);
    }

    /** The hash of the statement's normalized form; call after its last token. */
    long hash() {
        finish();
        return Hasher.hash(Hasher.NORMALIZED_SEED, out, length);
    }

    /** The statement's normalized form; call after its last token. */
    String text() {
        finish();
        return new String(out, 0, length);
    }

    @Override
    public void token(int kind, int word, int start, int end) {
        if (signMark < 0 && !lists.isOpen()) {
            write(kind, word, start, end); // most tokens: nothing pending for them to settle
        } else {
            settle(kind, word, start, end);
        }
        afterAny = kind == LPAREN && previousWord == ANY;
        previousKind = kind;
        previousWord = word;
        tokens++;
    }

    /** A token after a sign in unary position or inside a list that may collapse. */
    private void settle(int kind, int word, int start, int end) {
        int verdict = lists.isOpen() ? lists.token(kind, isSign(kind, start, end)) : ConstantLists.CONTINUE;
        if (signMark >= 0 && kind == NUMBER) {
            // "- 1" in unary position: the sign and the number are one constant
            length = signMark;
            glue = signGlue;
            constant();
            signMark = -1;
        } else {
            signMark = -1;
            if (!settles(verdict)) {
                write(kind, word, start, end);
            }
        }
    }

    /**
     * Acts on what the open list said of the token; true when that consumed the token (it closed an IN or
     * ARRAY list of constants), false when the token is still to be written.
     */
    private boolean settles(int verdict) {
        switch (verdict) {
            case ConstantLists.LIST -> {
                listElements += lists.listed();
                listTokens += tokens - listStart; // the closing token is the current one, not counted
                char open = out[listMark - 1];
                int written = length - listMark; // "?, ?, ?": three characters an element
                length = listMark;
                putAll(COLLAPSED);
                if (sizedLists) {
                    putSizeClass((written + 2) / 3);
                }
                put(open == '(' ? ')' : ']');
                glue = false;
                return true;
            }
            case ConstantLists.ROWS -> collapseRows();
            case ConstantLists.ROWS_THEN_COMMA -> {
                collapseRows();
                begin(COMMA); // the comma after the last row was written, then replaced with the rows
                put(',');
            }
            default -> { }
        }
        return false;
    }

    /**
     * Writes one token as itself, and notes what it may begin: a sign's number, a list of constants. The
     * buffer position stays in a local: this runs for every token.
     */
    private void write(int kind, int word, int start, int end) {
        if (isSign(kind, start, end) && unaryPosition()) {
            signMark = length;
            signGlue = glue;
        }
        char[] o = reserve(end - start + 1);
        int k = length;
        if (!glue && !GLUE_BEFORE[kind]) {
            o[k++] = ' ';
        }
        glue = GLUE_AFTER[kind];
        if (kind == IDENT) {
            for (int p = start; p < end; p++) {
                o[k++] = Keyword.lower(chars[p]);
            }
            if (word == VALUES) {
                lists.openRows();
                listMark = k;
                listStart = tokens + 1;
            }
        } else if (CONSTANT[kind]) {
            o[k++] = '?';
            if (afterAny && kind == STRING && end - start > 3 && chars[start + 1] == '{') {
                listElements += arrayElements(start + 2, end - 1);
            }
        } else {
            for (int p = start; p < end; p++) {
                o[k++] = chars[p];
            }
            if (kind == LPAREN && previousWord == IN || kind == LBRACKET && previousWord == ARRAY) {
                lists.openList(kind == LPAREN ? RPAREN : RBRACKET);
                listMark = k;
                listStart = tokens + 1;
            }
        }
        length = k;
    }

    /**
     * The elements of an array literal whose text after its opening brace is {@code chars[from, to)}: its
     * commas plus one, commas inside nested braces or quotes included (an over-count that only a literal
     * holding such commas makes).
     */
    private int arrayElements(int from, int to) {
        int elements = 1;
        for (int p = from; p < to; p++) {
            if (chars[p] == ',') {
                elements++;
            }
        }
        return elements;
    }

    private boolean isSign(int kind, int start, int end) {
        return kind == OPERATOR && end - start == 1 && (chars[start] == '-' || chars[start] == '+');
    }

    private void finish() {
        signMark = -1;
        boolean open = lists.isOpen();
        boolean rows = lists.inRows();
        int listed = lists.listed();
        int counted = listElements + valueCells;
        settles(lists.end());
        if (open && counted == listElements + valueCells) {
            // A list still open at the last token given: a statement cut at the limit (or one that never
            // closes its list). Its constants so far count, so that a cut statement's size can be scaled up.
            if (rows) {
                valueCells += listed;
            } else {
                listElements += listed;
            }
            listTokens += tokens - listStart;
        }
    }

    private boolean unaryPosition() {
        return previousKind == START || UNARY_AFTER_KIND[previousKind]
                || previousKind == IDENT && UNARY_AFTER_WORD[previousWord];
    }

    private void constant() {
        begin(NUMBER);
        put('?');
    }

    /** Replaces what follows VALUES with its first row's arity in {@code ?} and the mark of more rows. */
    private void collapseRows() {
        int written = length - listMark;
        valueCells += lists.listed();
        valueRows += lists.rows();
        listTokens += tokens - listStart; // the rows end before the current token
        length = listMark;
        glue = false;
        begin(LPAREN);
        put('(');
        for (int k = 0; k < lists.arity(); k++) {
            putAll(k == 0 ? "?" : ", ?");
        }
        putAll("), ");
        putAll(MORE_ROWS);
        if (sizedLists) {
            putSizeClass(written / Math.max(1, 3 * lists.arity() + 2));
        }
        glue = false;
    }

    /**
     * Where a collapsed list's size changes the estimate ({@link LexicalRules#sizedListFingerprints}), the power of
     * two at or below its length, so that lists of one size class share an estimate and larger ones do not.
     */
    private void putSizeClass(int elements) {
        putAll("#");
        putAll(Integer.toString(Integer.highestOneBit(Math.max(1, elements))));
    }

    /** Writes the separator that goes before a token of this kind (tables: one load instead of a switch). */
    private void begin(int kind) {
        if (!glue && !GLUE_BEFORE[kind]) {
            put(' ');
        }
        glue = GLUE_AFTER[kind];
    }

    private void putAll(String s) {
        for (int k = 0; k < s.length(); k++) {
            put(s.charAt(k));
        }
    }

    private void put(char c) {
        reserve(1)[length++] = c;
    }

    /** The buffer, with room for n more chars; a grown buffer goes back to the token stream for reuse. */
    private char[] reserve(int n) {
        if (length + n > out.length) {
            out = Arrays.copyOf(out, Math.max(out.length * 2, length + n));
            buffers.keepNormalizedBuffer(out);
        }
        return out;
    }
}
