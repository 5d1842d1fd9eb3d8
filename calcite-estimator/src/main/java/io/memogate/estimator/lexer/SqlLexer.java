package io.memogate.estimator.lexer;

import java.util.Objects;

/**
 * A cursor over the tokens of SQL text, written by hand after PostgreSQL's own lexer
 * (src/backend/parser/scan.l) because it runs on every statement the proxy sees: one pass over the
 * characters, no regular expressions, no object per token ({@link #next()} updates a few fields). What
 * differs between servers is read from its {@link LexicalRules}, copied into final fields when the lexer is
 * made: one loop for every dialect, branching on data.
 *
 * <p>Under PostgreSQL's rules, from <a href="https://www.postgresql.org/docs/current/sql-syntax-lexical.html">SQL
 * Syntax, Lexical Structure</a>, with standard_conforming_strings on (the default since 9.1):
 * <ul>
 * <li>whitespace is space, tab, newline, carriage return, form feed and vertical tab; {@code --} comments
 *     run to the end of the line and {@code /* *}{@code /} comments nest (4.1.5);</li>
 * <li>a string constant continues over whitespace that holds a newline ({@code 'a'} newline {@code 'b'} is
 *     {@code 'ab'}, 4.1.2.1); {@code E''} strings take backslash escapes, {@code B''} and {@code X''} have no
 *     escapes at all; a dollar quote's tag is an identifier without {@code $}, so {@code $1} is a parameter;</li>
 * <li>identifiers continue with letters, digits, {@code _}, {@code $} and every non-ASCII character;</li>
 * <li>numbers follow PostgreSQL 16 (underscores, {@code 0x}/{@code 0o}/{@code 0b}); what PostgreSQL 15+
 *     rejects as trailing junk ({@code 1e10e}, {@code 123abc}) is lexed as PostgreSQL 14 did: the number,
 *     then an identifier;</li>
 * <li>an operator is a run of {@code + - * / < > = ~ ! @ # % ^ & | ` ?}, cut before an embedded {@code --}
 *     or {@code /*}, and a multi-character operator loses trailing {@code +}/{@code -} unless it holds one
 *     of {@code ~ ! @ # % ^ & | ` ?} (4.1.3), so {@code =-1} is {@code =}, {@code -}, {@code 1};</li>
 * <li>a {@code ?} is a {@link TokenKind#PLACEHOLDER} only when that operator rule leaves it as a
 *     one-character operator ({@code a = ?}, {@code (?, ?)}); inside a longer run it stays part of the
 *     operator, as the server reads it ({@code ?|}, {@code ?&}, {@code ?-|}, and also {@code =?}). A lone
 *     {@code ?} could also be jsonb's key-exists operator; both read the same in a fingerprint.</li>
 * </ul>
 * Nothing throws: an unterminated quote, quoted identifier, dollar quote or comment becomes one
 * {@link TokenKind#UNTERMINATED} token to the end, and any other character one {@link TokenKind#OTHER}.
 * A lexer is used by one thread; it holds no state beyond its position and the characters it reads (a copy
 * of the text, or an array the analyzer shares with its token stream).
 */
public final class SqlLexer {

    private static final byte SPACE = LexicalRules.SPACE;
    private static final byte IDENT_START = LexicalRules.IDENT_START;
    private static final byte IDENT_PART = LexicalRules.IDENT_PART;
    private static final byte DIGIT = LexicalRules.DIGIT;
    private static final byte OPERATOR_CHAR = LexicalRules.OPERATOR_CHAR;
    private static final byte WORD_START = LexicalRules.WORD_START;
    private static final byte LINE_COMMENT = LexicalRules.LINE_COMMENT;
    private static final int IDENT = TokenKind.IDENT.ordinal();
    private static final int NONE = Keyword.NONE.ordinal();

    // The rules, copied: final fields of the lexer itself, read without a hop through the rules object.
    /** Classes of the ASCII characters; every character from 0x80 up is an identifier character. */
    private final byte[] classes;
    private final byte[] stringPrefixes;
    private final int plainStrings;
    private final boolean nestedComments;
    private final boolean doubleQuotedIdentifiers;
    private final boolean backtickIdentifiers;
    private final boolean bracketIdentifiers;
    private final boolean doubleQuotedStrings;
    private final boolean dashCommentNeedsSpace;
    private final boolean executableComments;
    private final boolean dollarQuotes;
    private final boolean unicodePrefix;
    final boolean stringContinuation;
    final boolean operatorSignRule;
    final boolean placeholders;

    /** The text's characters: array reads, where String.charAt checks the coder and the bounds each time. */
    private char[] chars;
    private int limit;
    private int pos;

    // Ordinals, not enum references: a reference store pays the collector's write barrier on every token.
    private int kind = TokenKind.OTHER.ordinal();
    private int keyword = Keyword.NONE.ordinal();
    private int start;
    private int end;

    public SqlLexer(String text, LexicalRules rules) {
        this(text, 0, text.length(), rules);
    }

    /** Lexes {@code text[from, to)} only; offsets stay those of the whole text. */
    public SqlLexer(String text, int from, int to, LexicalRules rules) {
        this(text.toCharArray(), from, to, rules);
    }

    /** Lexes {@code chars[from, to)}, an array the caller shares and does not change. */
    SqlLexer(char[] chars, int from, int to, LexicalRules rules) {
        Objects.checkFromToIndex(from, to, chars.length);
        this.chars = chars;
        this.limit = to;
        this.pos = from;
        this.classes = rules.classes;
        this.stringPrefixes = rules.stringPrefixes;
        this.plainStrings = rules.plainStrings.ordinal();
        this.nestedComments = rules.nestedComments;
        this.stringContinuation = rules.stringContinuation;
        this.doubleQuotedIdentifiers = rules.doubleQuotedIdentifiers;
        this.backtickIdentifiers = rules.backtickIdentifiers;
        this.bracketIdentifiers = rules.bracketIdentifiers;
        this.doubleQuotedStrings = rules.doubleQuotedStrings;
        this.dashCommentNeedsSpace = rules.dashCommentNeedsSpace;
        this.executableComments = rules.executableComments;
        this.dollarQuotes = rules.dollarQuotes;
        this.unicodePrefix = rules.unicodePrefix;
        this.operatorSignRule = rules.operatorSignRule;
        this.placeholders = rules.placeholders;
    }

    /**
     * Lexes {@code chars[from, to)} from now on, by the rules this lexer was made with, as a new lexer would: a
     * caller that keeps one lexer per thread ({@link TokenStream#lexerOf}) makes none per text.
     */
    SqlLexer over(char[] chars, int from, int to) {
        Objects.checkFromToIndex(from, to, chars.length);
        this.chars = chars;
        this.limit = to;
        this.pos = from;
        this.kind = TokenKind.OTHER.ordinal();
        this.keyword = NONE;
        this.start = 0;
        this.end = 0;
        return this;
    }

    /** Moves to the first token at or after {@code position} (whitespace and comments skipped); false at the end. */
    boolean nextFrom(int position) {
        pos = position;
        return next();
    }

    /** Moves to the next token; false at the end of the text. */
    public boolean next() {
        final char[] s = chars;
        final byte[] cls = classes;
        final int n = limit;
        int p = pos;
        while (p < n) {
            char c = s[p];
            if (c < 128 && (cls[c] & SPACE) != 0) {
                p++;
            } else if (c < 128 && (cls[c] & WORD_START) != 0) {
                return identifier(p); // most tokens: a word that no quote or prefix can follow
            } else if (c == '-' && p + 1 < n && s[p + 1] == '-'
                    && (!dashCommentNeedsSpace || p + 2 >= n || s[p + 2] <= ' ')) {
                p = lineEnd(p + 2);
            } else if (c == '/' && p + 1 < n && s[p + 1] == '*') {
                int body = executableComments ? executableBody(p + 2) : -1;
                if (body >= 0) {
                    p = body;
                    continue;
                }
                int e = blockCommentEnd(p + 2);
                if (e < 0) {
                    return emit(TokenKind.UNTERMINATED, p, n);
                }
                p = e;
            } else if (c < 128 && (cls[c] & LINE_COMMENT) != 0) {
                p = lineEnd(p + 1);
            } else if (c == '*' && executableComments && p + 1 < n && s[p + 1] == '/') {
                p += 2; // the end of an executable comment: no operator of MySQL's is written */
            } else {
                return token(p, c);
            }
        }
        pos = n;
        return false;
    }

    public TokenKind kind() {
        return TokenKind.ofOrdinal(kind);
    }

    /** The word an {@link TokenKind#IDENT} spells, {@link Keyword#NONE} for other words and other tokens. */
    public Keyword keyword() {
        return Keyword.ofOrdinal(keyword);
    }

    /** {@link #kind()}'s ordinal, as a {@link TokenStream} stores it. */
    int kindOrdinal() {
        return kind;
    }

    /** {@link #keyword()}'s ordinal, as a {@link TokenStream} stores it. */
    int keywordOrdinal() {
        return keyword;
    }

    /** Offset of the token's first character in the text. */
    public int start() {
        return start;
    }

    /** Offset just past the token's last character. */
    public int end() {
        return end;
    }

    private boolean token(int p, char c) {
        final char[] s = chars;
        final int n = limit;
        if (c >= 128) {
            return identifier(p);
        }
        char c1 = p + 1 < n ? s[p + 1] : 0;
        switch (c) {
            case '\'':
                return QuotedScanner.string(this, s, n, p, p + 1, plainStrings, TokenKind.STRING);
            case '"':
                if (doubleQuotedIdentifiers) {
                    return QuotedScanner.identifier(this, s, n, p, p + 1, '"');
                }
                if (doubleQuotedStrings) {
                    return QuotedScanner.string(this, s, n, p, p + 1, plainStrings, TokenKind.STRING, '"');
                }
                break;
            case '`':
                if (backtickIdentifiers) {
                    return QuotedScanner.identifier(this, s, n, p, p + 1, '`');
                }
                break;
            case '$':
                if (dollarQuotes) {
                    return QuotedScanner.dollar(this, s, n, p);
                }
                break;
            case '(':
                return emit(TokenKind.LPAREN, p, p + 1);
            case ')':
                return emit(TokenKind.RPAREN, p, p + 1);
            case '[':
                if (bracketIdentifiers) {
                    return QuotedScanner.identifier(this, s, n, p, p + 1, ']');
                }
                return emit(TokenKind.LBRACKET, p, p + 1);
            case ']':
                return emit(TokenKind.RBRACKET, p, p + 1);
            case ',':
                return emit(TokenKind.COMMA, p, p + 1);
            case ';':
                return emit(TokenKind.SEMICOLON, p, p + 1);
            case '.':
                if (c1 >= '0' && c1 <= '9') {
                    return emit(TokenKind.NUMBER, p, NumberScanner.fraction(s, n, p + 1));
                }
                return c1 == '.' ? emit(TokenKind.DOT_DOT, p, p + 2) : emit(TokenKind.DOT, p, p + 1);
            case ':':
                if (c1 == ':') {
                    return emit(TokenKind.TYPECAST, p, p + 2);
                }
                return c1 == '=' ? emit(TokenKind.COLON_EQUALS, p, p + 2) : emit(TokenKind.COLON, p, p + 1);
            default:
                break;
        }
        int prefix = stringPrefixes[c];
        if (prefix != 0 && c1 == '\'') {
            int form = prefix - 1;
            return QuotedScanner.string(this, s, n, p, p + 2, form,
                    form == QuotedScanner.BITS ? TokenKind.BIT_STRING : TokenKind.STRING);
        }
        if (unicodePrefix && (c == 'u' || c == 'U') && c1 == '&' && p + 2 < n) {
            char c2 = s[p + 2];
            if (c2 == '\'') {
                return QuotedScanner.string(this, s, n, p, p + 3, QuotedScanner.STANDARD, TokenKind.STRING);
            }
            if (c2 == '"') {
                return QuotedScanner.identifier(this, s, n, p, p + 3, '"');
            }
        }
        byte cls = classes[c];
        if ((cls & DIGIT) != 0) {
            return emit(TokenKind.NUMBER, p, NumberScanner.number(s, n, p));
        }
        if ((cls & IDENT_START) != 0) {
            return identifier(p);
        }
        if ((cls & OPERATOR_CHAR) != 0) {
            return OperatorScanner.operator(this, s, n, p);
        }
        return emit(TokenKind.OTHER, p, p + 1);
    }

    private boolean identifier(int p) {
        final char[] s = chars;
        final byte[] cls = classes;
        final int n = limit;
        int q = p + 1; // the caller has seen an identifier's first character
        boolean ascii = s[p] < 128;
        while (q < n) {
            char c = s[q];
            if (c >= 128) {
                ascii = false;
            } else if ((cls[c] & IDENT_PART) == 0) {
                break;
            }
            q++;
        }
        kind = IDENT;
        keyword = ascii ? Keyword.lookup(s, p, q).ordinal() : NONE;
        start = p;
        end = q;
        pos = q;
        return true;
    }

    /**
     * Where the text of an executable comment opened before p ({@code /*!}, {@code /*M!}) starts, past its
     * version number; -1 when the comment is an ordinary one.
     */
    private int executableBody(int p) {
        final char[] s = chars;
        final int n = limit;
        if (p < n && s[p] == 'M' && p + 1 < n && s[p + 1] == '!') {
            p++;
        }
        if (p >= n || s[p] != '!') {
            return -1;
        }
        p++;
        while (p < n && s[p] >= '0' && s[p] <= '9') {
            p++;
        }
        return p;
    }

    /** Index of the newline ending a line comment ({@code --}, or the rules' own) or the limit. */
    private int lineEnd(int p) {
        final char[] s = chars;
        while (p < limit) {
            char c = s[p];
            if (c == '\n' || c == '\r') {
                return p;
            }
            p++;
        }
        return limit;
    }

    /** Index just past the {@code *}{@code /} closing a block comment opened before p, or -1. */
    private int blockCommentEnd(int p) {
        final char[] s = chars;
        final int n = limit;
        int depth = 1;
        while (p < n - 1) {
            char c = s[p];
            if (c == '*' && s[p + 1] == '/') {
                p += 2;
                if (--depth == 0) {
                    return p;
                }
            } else if (nestedComments && c == '/' && s[p + 1] == '*') {
                p += 2;
                depth++;
            } else {
                p++;
            }
        }
        return -1;
    }

    boolean emit(TokenKind kind, int start, int end) {
        this.kind = kind.ordinal();
        this.keyword = NONE;
        this.start = start;
        this.end = end;
        this.pos = end;
        return true;
    }

    /** Index of the first {@code c} in {@code s[from, n)}, or -1. */
    static int indexOf(char[] s, char c, int from, int n) {
        for (int p = from; p < n; p++) {
            if (s[p] == c) {
                return p;
            }
        }
        return -1;
    }

    boolean isIdentifierStart(char c) {
        return c >= 128 || (classes[c] & IDENT_START) != 0;
    }

    /** An identifier character other than {@code $}: what may follow the first character of a dollar-quote tag. */
    boolean isTagPart(char c) {
        return c >= 128 || (c != '$' && (classes[c] & IDENT_PART) != 0);
    }

    boolean isOperatorChar(char c) {
        return c < 128 && (classes[c] & OPERATOR_CHAR) != 0;
    }

    static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
