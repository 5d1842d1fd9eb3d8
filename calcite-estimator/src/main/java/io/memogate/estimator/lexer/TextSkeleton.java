package io.memogate.estimator.lexer;

/**
 * A 64-bit key of a text that leaves out what its constants hold: the hash of the text as written, with
 * each constant (string, parameter, dollar-quoted string, bit string) replaced by one mark, each number by
 * another, and each comment, with the whitespace after it, by a third. Two texts with the same key differ
 * only inside their constants and comments, so their statements have the same fingerprints
 * ({@link Fingerprint}) and the same estimates. The converse does not hold (case and spacing change the
 * key, not the fingerprint, and so does a parameter where a number was), which only costs a cache miss.
 *
 * <p>Why: an application that writes its constants into the text sends a new text each time. This key
 * answers such a text from a cache without the lexer's work per token (keyword look-up, classification,
 * writing and hashing the normalized form): one pass over the characters, hashing runs of identifier,
 * operator and punctuation characters as they are, and handing the lexer only the positions where a
 * constant, a quoted identifier or a comment may start, so that where each of those ends is exactly where
 * the lexer says (quotes, escapes, dollar tags, nested comments, string continuation). Which characters may
 * start one follows the dialect's {@link LexicalRules}.
 */
public final class TextSkeleton {

    /** What {@link #key} returns for a text it cannot key (an unterminated quote or comment). */
    public static final long NONE = 0;

    private static final long SEED = 0x2545F4914F6CDD1DL;
    /**
     * Opens a mark in the hashed sequence (a constant, a number, a comment), or, hashed twice, stands for a
     * U+FFFF of the text: the sequence reads back one way only.
     */
    private static final char ESCAPE = '\uFFFF';
    private static final char COMMENT_MARK = '/';
    private static final char CONSTANT_MARK = '?';
    private static final char NUMBER_MARK = '#';
    private static final int NUMBER = TokenKind.NUMBER.ordinal();

    // Character classes (ASCII); every character from 0x80 up is an identifier character.
    private static final byte PLAIN = 0;
    private static final byte WORD = 1;
    private static final byte DIGIT = 2;
    /** A letter that may prefix a quote (PostgreSQL's e, b, x, n, u: {@code E'}, {@code B'}, {@code U&'}, ...). */
    private static final byte PREFIX = 3;
    /** {@code $} where it starts a dollar quote or a parameter. */
    private static final byte DOLLAR = 4;
    private static final byte QUOTE = 5;
    private static final byte DASH = 6;
    private static final byte SLASH = 7;
    private static final byte DOT = 8;
    /** A character that starts a comment by itself ({@code #} where the rules say so). */
    private static final byte COMMENT = 9;
    /** Any other character that continues an identifier without starting one. */
    private static final byte WORD_PART = 10;
    private static final boolean[] CONSTANT = TokenKind.constants();
    private static final int UNTERMINATED = TokenKind.UNTERMINATED.ordinal();

    private TextSkeleton() {
    }

    /** The key of {@code text} lexed by {@code rules}, or {@link #NONE}; for tests (the estimator reuses a buffer). */
    static long key(String text, LexicalRules rules) {
        return key(text, new TokenStream(), rules);
    }

    /**
     * As {@link #key(String, LexicalRules)}, copying the text into a buffer the calling thread's stream keeps, and
     * lexing its constants with the lexer the stream keeps: nothing made per text once both exist.
     */
    public static long key(String text, TokenStream scratch, LexicalRules rules) {
        return key(scratch.charsOf(text), text.length(), rules, scratch);
    }

    /** The key of {@code s[0, n)} lexed by {@code rules}, or {@link #NONE}. */
    private static long key(char[] s, int n, LexicalRules rules, TokenStream scratch) {
        final byte[] classes = rules.skeletonClasses;
        Hasher h = new Hasher(SEED);
        SqlLexer lexer = null;
        boolean afterWord = false; // the previous character continues an identifier
        int run = 0; // where the characters hashed as written, not yet put, begin
        int p = 0;
        while (p < n) {
            char c = s[p];
            byte cls = c < 128 ? classes[c] : WORD;
            boolean delegate = switch (cls) {
                case DIGIT, DOLLAR -> !afterWord;
                case COMMENT -> true;
                case PREFIX -> !afterWord && p + 1 < n
                        && (s[p + 1] == '\'' || s[p + 1] == '&' && (c == 'u' || c == 'U'));
                case QUOTE -> true;
                case DASH -> p + 1 < n && s[p + 1] == '-';
                case SLASH -> p + 1 < n && s[p + 1] == '*';
                case DOT -> p + 1 < n && s[p + 1] >= '0' && s[p + 1] <= '9';
                default -> false;
            };
            if (!delegate) {
                if (c == ESCAPE) {
                    h.put(s, run, p + 1, false);
                    h.put(ESCAPE);
                    run = p + 1;
                }
                afterWord = cls == WORD || cls == PREFIX
                        || afterWord && (cls == DIGIT || cls == DOLLAR || cls == WORD_PART);
                p++;
                continue;
            }
            h.put(s, run, p, false);
            // The lexer decides where the token (or the comment and what follows it) ends.
            if (lexer == null) {
                lexer = scratch.lexerOf(s, n, rules);
            }
            if (!lexer.nextFrom(p)) {
                h.put(ESCAPE);
                h.put(COMMENT_MARK); // a comment to the end
                run = p = n;
                break;
            }
            int kind = lexer.kindOrdinal();
            if (kind == UNTERMINATED) {
                return NONE;
            }
            if (lexer.start() > p) {
                h.put(ESCAPE);
                h.put(COMMENT_MARK); // a comment, and the whitespace after it
            }
            if (CONSTANT[kind]) {
                h.put(ESCAPE);
                // The fingerprint writes every constant as ?, but folds a sign into a number only: the two
                // must not share a mark ("+ 42" and "+ $1" have different fingerprints).
                h.put(kind == NUMBER ? NUMBER_MARK : CONSTANT_MARK);
                run = lexer.end();
            } else {
                run = lexer.start(); // hashed as written with what follows
                for (int q = run; q < lexer.end(); q++) {
                    if (s[q] == ESCAPE) {
                        h.put(s, run, q + 1, false);
                        h.put(ESCAPE);
                        run = q + 1;
                    }
                }
            }
            afterWord = false;
            p = lexer.end();
        }
        h.put(s, run, n, false);
        long key = h.finish();
        return key == NONE ? 1 : key;
    }

    /** The classes of the ASCII characters under {@code rules}, which keep them ({@link LexicalRules}). */
    static byte[] classes(LexicalRules rules) {
        byte[] classes = new byte[128];
        for (char c = 0; c < 128; c++) {
            byte lexed = rules.classes[c];
            if ((lexed & LexicalRules.IDENT_START) != 0) {
                classes[c] = WORD;
            } else if ((lexed & LexicalRules.IDENT_PART) != 0) {
                classes[c] = WORD_PART;
            }
            if ((lexed & LexicalRules.LINE_COMMENT) != 0) {
                classes[c] = COMMENT;
            }
            if (rules.stringPrefixes[c] != 0 || rules.unicodePrefix && (c == 'u' || c == 'U')) {
                classes[c] = PREFIX;
            }
            if (rules.isIdentifierQuote(c) || rules.isStringQuote(c)) {
                classes[c] = QUOTE;
            }
        }
        for (char c = '0'; c <= '9'; c++) {
            classes[c] = DIGIT;
        }
        if (rules.dollarQuotes) {
            classes['$'] = DOLLAR;
        }
        classes['\''] = QUOTE;
        classes['-'] = DASH;
        classes['/'] = SLASH;
        classes['.'] = DOT;
        return classes;
    }
}
