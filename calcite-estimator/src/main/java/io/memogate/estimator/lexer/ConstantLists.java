package io.memogate.estimator.lexer;

/**
 * Recognizes, as the tokens stream past, the lists a fingerprint squashes (see {@link Normalizer}):
 * {@code IN (c, ...)} and {@code ARRAY[c, ...]} from their opening token, {@code VALUES (c, ...), (c, ...)}
 * from its key word, where each {@code c} is a constant, a parameter or a sign and a number. A list is
 * known to be one only at its last token (or, for VALUES rows, at the token after the last row), so the
 * normalizer writes every token as usual and this tells it when to replace what it wrote since the list
 * began. Once a token breaks the pattern the list is forgotten: what was written stands, as if the list had
 * never been a candidate. At most one list is open, since only constants, signs, commas and (between rows)
 * parentheses keep one open, and none of those opens another.
 */
final class ConstantLists {

    /** What the token just given means for the open list. */
    static final int CONTINUE = 0;
    /** The token closed an IN or ARRAY list of constants: replace the list, the token included. */
    static final int LIST = 1;
    /** The rows of a VALUES ended before this token: replace them, then write the token. */
    static final int ROWS = 2;
    /** As ROWS, and a comma after the last row is not a separator: write it again after the rows. */
    static final int ROWS_THEN_COMMA = 3;

    // States: what the open list expects next.
    private static final int CLOSED = 0;
    /** VALUES was the last token: its first row must open now. */
    private static final int FIRST_ROW = 1;
    private static final int ELEMENT = 2;
    /** A sign was the last token: a number must follow. */
    private static final int SIGNED = 3;
    /** A comma or the closing token. */
    private static final int SEPARATOR = 4;
    /** A row of VALUES closed: a comma may lead to the next row. */
    private static final int AFTER_ROW = 5;
    /** A comma after a row: the next row's parenthesis, or the rows have ended. */
    private static final int AFTER_COMMA = 6;

    private static final int NUMBER = TokenKind.NUMBER.ordinal();
    private static final int LPAREN = TokenKind.LPAREN.ordinal();
    private static final int RPAREN = TokenKind.RPAREN.ordinal();
    private static final int COMMA = TokenKind.COMMA.ordinal();
    private static final boolean[] CONSTANT = TokenKind.constants();

    private int state = CLOSED;
    private boolean rows;
    private int close;
    private int elements;
    /** Constants of the open list, over all its rows. */
    private int listed;
    /** Rows of the open VALUES. */
    private int rowCount;
    private int arity;

    /** An IN or ARRAY list opened; {@code close} is the kind of the token that would end it. */
    void openList(int close) {
        this.state = ELEMENT;
        this.rows = false;
        this.close = close;
        this.listed = 0;
    }

    /** VALUES was written; its rows may follow. */
    void openRows() {
        this.state = FIRST_ROW;
        this.rows = true;
        this.close = RPAREN;
        this.arity = -1;
        this.listed = 0;
        this.rowCount = 0;
    }

    boolean isOpen() {
        return state != CLOSED;
    }

    /** Whether the open list is the rows of a VALUES. */
    boolean inRows() {
        return rows;
    }

    /**
     * Constants of the list last reported as {@link #LIST} or {@link #ROWS}: its elements, or its rows' cells
     * (a row of a VALUES counts as many cells as it has).
     */
    int listed() {
        return listed;
    }

    /** Rows of the VALUES last reported as {@link #ROWS}. */
    int rows() {
        return rowCount;
    }

    /** Elements of the first row of the VALUES last reported as {@link #ROWS}. */
    int arity() {
        return arity;
    }

    /** The next token: its kind and whether it is a one-character {@code +} or {@code -}. */
    int token(int kind, boolean sign) {
        switch (state) {
            case FIRST_ROW -> {
                return kind == LPAREN ? row() : forget();
            }
            case ELEMENT -> {
                if (CONSTANT[kind]) {
                    elements++;
                    listed++;
                    state = SEPARATOR;
                } else if (sign) {
                    state = SIGNED;
                } else {
                    return forget();
                }
                return CONTINUE;
            }
            case SIGNED -> {
                if (kind != NUMBER) {
                    return forget();
                }
                elements++;
                listed++;
                state = SEPARATOR;
                return CONTINUE;
            }
            case SEPARATOR -> {
                if (kind == COMMA) {
                    state = ELEMENT;
                    return CONTINUE;
                }
                if (kind != close) {
                    return forget();
                }
                if (!rows) {
                    state = CLOSED;
                    return LIST;
                }
                if (arity < 0) {
                    arity = elements;
                }
                rowCount++;
                state = AFTER_ROW;
                return CONTINUE;
            }
            case AFTER_ROW -> {
                if (kind == COMMA) {
                    state = AFTER_COMMA;
                    return CONTINUE;
                }
                state = CLOSED;
                return ROWS;
            }
            case AFTER_COMMA -> {
                if (kind == LPAREN) {
                    return row();
                }
                state = CLOSED;
                return ROWS_THEN_COMMA;
            }
            default -> {
                return CONTINUE;
            }
        }
    }

    /** The statement ended: what the open list, if any, turned out to be ({@link #CONTINUE} for nothing). */
    int end() {
        int s = state;
        state = CLOSED;
        return switch (s) {
            case AFTER_ROW -> ROWS;
            case AFTER_COMMA -> ROWS_THEN_COMMA;
            default -> CONTINUE;
        };
    }

    private int row() {
        state = ELEMENT;
        elements = 0;
        return CONTINUE;
    }

    private int forget() {
        state = CLOSED;
        return CONTINUE;
    }
}
