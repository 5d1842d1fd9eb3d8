package io.memogate.estimator.lexer;

import java.util.Arrays;

/**
 * Tokens of one text as parallel primitive arrays (kind, word, start, end): no object per token, and
 * reusable with {@link #lex} so a caller that keeps one per thread allocates nothing once the arrays have
 * grown to its statements. Indexes run from 0 to {@link #size()}; offsets are into {@link #text()}.
 * Not thread-safe: confine a stream to one thread; what is computed from it ({@link Fingerprint},
 * {@link Classification}, ...) is immutable.
 */
public final class TokenStream {

    private static final int INITIAL_CAPACITY = 64;

    private String text = "";
    /** The rules the tokens were lexed by; null until the stream holds a text. */
    private LexicalRules rules;
    /** The text's characters, shared with the lexer that produced the tokens; read, never written. */
    private char[] chars = new char[0];
    private byte[] kinds;
    private short[] words;
    private int[] starts;
    private int[] ends;
    private int size;
    /**
     * The largest text buffers a stream keeps for the next text, in chars: a stream reused by a thread for
     * its whole life (the proxy's event loops) keeps what ordinary statements need, not what the largest text
     * it ever saw needed; larger texts get buffers that go with them.
     */
    static final int MAX_KEPT_CHARS = 1 << 16;

    /** The characters of the last text {@link #charsOf} copied, kept for the next text. */
    private char[] textBuffer = new char[0];
    /** The normalizer's output, kept for the next statement (see {@link Normalizer}). */
    private char[] normalized = new char[0];
    /** The lexer {@link #lexerOf} keeps for the next text, and the rules it lexes by. */
    private SqlLexer keptLexer;
    private LexicalRules keptLexerRules;

    public TokenStream() {
        this(INITIAL_CAPACITY);
    }

    public TokenStream(int capacity) {
        int c = Math.max(capacity, 4);
        kinds = new byte[c];
        words = new short[c];
        starts = new int[c];
        ends = new int[c];
    }

    /** The tokens of the whole text, lexed by {@code rules}. */
    public static TokenStream of(String text, LexicalRules rules) {
        TokenStream tokens = new TokenStream();
        tokens.lex(text, 0, text.length(), rules);
        return tokens;
    }

    /** Replaces the contents with the tokens of {@code text[from, to)}, lexed by {@code rules}. */
    public void lex(String text, int from, int to, LexicalRules rules) {
        char[] c = text.toCharArray();
        reset(text, c, rules);
        SqlLexer lexer = new SqlLexer(c, from, to, rules);
        while (lexer.next()) {
            add(lexer.kindOrdinal(), lexer.keywordOrdinal(), lexer.start(), lexer.end());
        }
    }

    /**
     * Empties the stream; tokens of {@code text}, whose characters are {@code chars}, lexed by {@code rules},
     * follow through {@link #add}.
     */
    void reset(String text, char[] chars, LexicalRules rules) {
        this.text = text;
        this.chars = chars;
        this.rules = rules;
        this.size = 0;
    }

    /**
     * {@code text}'s characters in an array the stream keeps for the next text, so that a reused stream
     * allocates nothing for them; the array may be longer than the text.
     */
    char[] charsOf(String text) {
        if (text.length() > MAX_KEPT_CHARS) {
            return text.toCharArray();
        }
        if (textBuffer.length < text.length()) {
            textBuffer = new char[text.length()];
        }
        text.getChars(0, text.length(), textBuffer, 0);
        return textBuffer;
    }

    /**
     * A lexer of {@code chars[0, n)} by {@code rules}: the one the stream keeps, when it was made for the same rules
     * and the characters are a buffer the stream keeps too (a larger text's array is not held on to).
     */
    SqlLexer lexerOf(char[] chars, int n, LexicalRules rules) {
        if (chars.length > MAX_KEPT_CHARS) {
            return new SqlLexer(chars, 0, n, rules);
        }
        if (keptLexer == null || keptLexerRules != rules) {
            keptLexer = new SqlLexer(chars, 0, n, rules);
            keptLexerRules = rules;
            return keptLexer;
        }
        return keptLexer.over(chars, 0, n);
    }

    /** The text's characters (package-private: callers must not write them). */
    char[] chars() {
        return chars;
    }

    /*
     * The arrays themselves, for the package's passes over every token (Normalizer, Classifier): indexes up to
     * size() only; callers must not write them. Array reads skip the enum look-ups of kind(i) and keyword(i).
     */

    byte[] kinds() {
        return kinds;
    }

    short[] words() {
        return words;
    }

    int[] starts() {
        return starts;
    }

    int[] ends() {
        return ends;
    }

    /** A buffer for the normalized form of a text of this length, at least as long (the normalizer may grow it). */
    char[] normalizedBuffer(int textLength) {
        int wanted = textLength + 16;
        if (wanted > MAX_KEPT_CHARS) {
            return new char[wanted];
        }
        if (normalized.length < wanted) {
            normalized = new char[wanted];
        }
        return normalized;
    }

    /** Keeps the buffer the normalizer grew, for the next statement, unless it is over {@link #MAX_KEPT_CHARS}. */
    void keepNormalizedBuffer(char[] buffer) {
        if (buffer.length <= MAX_KEPT_CHARS) {
            normalized = buffer;
        }
    }

    /** Appends a token; kind and word are ordinals of {@link TokenKind} and {@link Keyword}. */
    void add(int kind, int word, int start, int end) {
        if (size == kinds.length) {
            int c = size * 2;
            kinds = Arrays.copyOf(kinds, c);
            words = Arrays.copyOf(words, c);
            starts = Arrays.copyOf(starts, c);
            ends = Arrays.copyOf(ends, c);
        }
        kinds[size] = (byte) kind;
        words[size] = (short) word;
        starts[size] = start;
        ends[size] = end;
        size++;
    }

    public String text() {
        return text;
    }

    /** The rules the tokens were lexed by (what a string's escapes and an identifier's quotes are). */
    public LexicalRules rules() {
        return rules;
    }

    public int size() {
        return size;
    }

    public TokenKind kind(int i) {
        return TokenKind.ofOrdinal(kinds[checked(i)]);
    }

    public Keyword keyword(int i) {
        return Keyword.ofOrdinal(words[checked(i)]);
    }

    public int start(int i) {
        return starts[checked(i)];
    }

    public int end(int i) {
        return ends[checked(i)];
    }

    /** True when token i exists and is of this kind. */
    public boolean is(int i, TokenKind kind) {
        return i >= 0 && i < size && kinds[i] == kind.ordinal();
    }

    /** True when token i exists and is this word. */
    public boolean is(int i, Keyword word) {
        return i >= 0 && i < size && words[i] == word.ordinal();
    }

    /**
     * True when token i is an unquoted identifier spelling {@code lowerCaseWord} in any case: for words
     * that are not a {@link Keyword}, without allocating.
     */
    public boolean isWord(int i, String lowerCaseWord) {
        if (!is(i, TokenKind.IDENT) || ends[i] - starts[i] != lowerCaseWord.length()) {
            return false;
        }
        for (int k = 0, p = starts[i]; k < lowerCaseWord.length(); k++, p++) {
            if (Keyword.lower(chars[p]) != lowerCaseWord.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    /** The token's text as written (allocates: for messages and tests). */
    public String tokenText(int i) {
        return text.substring(start(i), end(i));
    }

    private int checked(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("token " + i + " of " + size);
        }
        return i;
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < size; i++) {
            b.append(i == 0 ? "" : " ").append(kind(i)).append('[').append(tokenText(i)).append(']');
        }
        return b.toString();
    }
}
