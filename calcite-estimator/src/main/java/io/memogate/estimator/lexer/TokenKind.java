package io.memogate.estimator.lexer;

/**
 * What a token is, following PostgreSQL's lexer (src/backend/parser/scan.l) and
 * <a href="https://www.postgresql.org/docs/current/sql-syntax-lexical.html">SQL Syntax, Lexical Structure</a>.
 * Whitespace and comments produce no tokens. A {@link TokenStream} stores the ordinal in a byte.
 */
public enum TokenKind {
    /** An unquoted identifier or key word; which of the words the analysis knows is {@link Keyword}. */
    IDENT,
    /** {@code "..."} or {@code U&"..."}: case kept, {@code ""} is a quote inside. */
    QUOTED_IDENT,
    /** {@code '...'}, {@code E'...'}, {@code N'...'}, {@code U&'...'}, with continuations across newlines. */
    STRING(true),
    /** {@code B'...'} and {@code X'...'}. */
    BIT_STRING(true),
    /** {@code $$...$$} or {@code $tag$...$tag$}. */
    DOLLAR_STRING(true),
    /** {@code 42}, {@code 3.5}, {@code .5}, {@code 1e-3}, {@code 0x1F}, {@code 0o17}, {@code 0b101}, {@code 1_000}. */
    NUMBER(true),
    /** A positional parameter {@code $1}. */
    PARAM(true),
    /** A {@code ?} that PostgreSQL's operator rules leave standing alone: a JDBC/ODBC placeholder. */
    PLACEHOLDER(true),
    /** A run of operator characters as PostgreSQL cuts it: {@code ->>}, {@code @>}, {@code <=}, {@code ?|}, {@code +}. */
    OPERATOR,
    /** {@code ::}. */
    TYPECAST,
    LPAREN,
    RPAREN,
    LBRACKET,
    RBRACKET,
    COMMA,
    SEMICOLON,
    DOT,
    /** {@code ..} (also after an integer: {@code 1..10} is 1, .., 10). */
    DOT_DOT,
    COLON,
    /** {@code :=}. */
    COLON_EQUALS,
    /** A quote, quoted identifier, dollar quote or block comment without its end; it runs to the end of the text. */
    UNTERMINATED,
    /** A character PostgreSQL would reject ({@code \}, {@code {}, NUL, a lone {@code $}, ...): one token per character. */
    OTHER;

    private static final TokenKind[] VALUES = values();

    private final boolean constant;

    TokenKind() {
        this(false);
    }

    TokenKind(boolean constant) {
        this.constant = constant;
    }

    /** A literal or a parameter: what a fingerprint replaces with {@code ?}. */
    public boolean isConstant() {
        return constant;
    }

    static TokenKind ofOrdinal(int ordinal) {
        return VALUES[ordinal];
    }

    /** A table by ordinal, true for the kinds given: for the per-token passes, one load instead of a switch. */
    static boolean[] table(TokenKind... kinds) {
        boolean[] table = new boolean[VALUES.length];
        for (TokenKind k : kinds) {
            table[k.ordinal()] = true;
        }
        return table;
    }

    /** A table by ordinal of {@link #isConstant()}. */
    static boolean[] constants() {
        boolean[] table = new boolean[VALUES.length];
        for (TokenKind k : VALUES) {
            table[k.ordinal()] = k.constant;
        }
        return table;
    }
}
