package io.memogate.estimator.lexer;

/**
 * The normalized form of one statement and its 64-bit hash, the key the estimate cache uses: statements
 * that differ only in constants, parameters, whitespace, comments or key word case share it; any other
 * difference in tokens changes it. {@link Normalizer} has the rules.
 *
 * <p>{@link #hash()} is computed as the tokens are lexed (in {@link LexicalAnalyzer}'s single pass over the
 * text), through a char buffer the token stream reuses, without building a String; {@link #text()} is built
 * on first use by lexing the statement again. Equality is the hash's (and oversize) equality, as in the cache.
 *
 * <p>An oversized statement (longer than {@link LexicalAnalyzer}'s maximum) is not normalized: its hash is
 * taken over its length and its first and last {@value #OVERSIZED_SAMPLE} characters. Such statements are
 * generated (huge IN lists, bulk VALUES); the estimator estimates them by size, so the hash only needs to
 * recognize a repeated text, and walking megabytes token by token on every execution would cost more than
 * the cache saves.
 */
public final class Fingerprint {

    static final int OVERSIZED_SAMPLE = 4096;

    private final long hash;
    private final boolean oversized;
    private final String source;
    /** The rules the statement is lexed by again, for {@link #text()}; null when oversized. */
    private final LexicalRules rules;
    private final int start;
    private final int end;
    /** Built on first use; a race only builds the same immutable String twice. */
    private String text;

    private Fingerprint(long hash, boolean oversized, String source, LexicalRules rules, int start, int end) {
        this.hash = hash;
        this.oversized = oversized;
        this.source = source;
        this.rules = rules;
        this.start = start;
        this.end = end;
    }

    /** The fingerprint of one statement's text (semicolons included, should there be any), lexed by {@code rules}. */
    public static Fingerprint of(String statement, LexicalRules rules) {
        return of(TokenStream.of(statement, rules));
    }

    /** The fingerprint of all tokens of the stream, taken as one statement. */
    public static Fingerprint of(TokenStream tokens) {
        int n = tokens.size();
        long hash = normalizer(tokens).hash();
        return n == 0
                ? new Fingerprint(hash, false, "", tokens.rules(), 0, 0)
                : new Fingerprint(hash, false, tokens.text(), tokens.rules(), tokens.start(0), tokens.end(n - 1));
    }

    /** The normalizer, having been given every token of the stream. */
    private static Normalizer normalizer(TokenStream tokens) {
        Normalizer normalizer = new Normalizer(tokens, tokens.chars());
        byte[] kinds = tokens.kinds();
        short[] words = tokens.words();
        int[] starts = tokens.starts();
        int[] ends = tokens.ends();
        for (int i = 0; i < tokens.size(); i++) {
            normalizer.token(kinds[i], words[i], starts[i], ends[i]);
        }
        return normalizer;
    }

    /**
     * The fingerprint of the statement {@code source[start, end)}, lexed by {@code rules}, whose normalized form
     * hashes to {@code hash}.
     */
    static Fingerprint normalized(long hash, String source, LexicalRules rules, int start, int end) {
        return new Fingerprint(hash, false, source, rules, start, end);
    }

    /** The fingerprint of {@code source[start, end)} taken as too long to normalize. */
    static Fingerprint oversized(String source, int start, int end) {
        Hasher h = new Hasher(Hasher.OVERSIZED_SEED);
        int length = end - start;
        h.put((char) (length >>> 16));
        h.put((char) length);
        if (length <= 2 * OVERSIZED_SAMPLE) {
            h.put(source, start, end);
        } else {
            h.put(source, start, start + OVERSIZED_SAMPLE);
            h.put(source, end - OVERSIZED_SAMPLE, end);
        }
        return new Fingerprint(h.finish(), true, source, null, start, end);
    }

    /** The hash {@link #hash()} gives for a statement whose {@link #text()} is {@code normalized}. */
    public static long hashOf(CharSequence normalized) {
        Hasher h = new Hasher(Hasher.NORMALIZED_SEED);
        h.put(normalized, 0, normalized.length());
        return h.finish();
    }

    public long hash() {
        return hash;
    }

    /** True when the statement was too long to normalize; see the class comment. */
    public boolean oversized() {
        return oversized;
    }

    /** The normalized statement, for display. */
    public String text() {
        String t = text;
        if (t == null) {
            if (oversized) {
                t = "/* oversized statement: " + (end - start) + " characters */";
            } else {
                TokenStream tokens = new TokenStream();
                if (start < end) { // a stream that held no text has no rules to lex it by, nor a token
                    // Only this statement's characters: lexing copies, and the normalizer sizes its buffer by, the
                    // whole text it is given, which for each of many statements of one long text adds up to the
                    // square of its length.
                    String statement = source.substring(start, end);
                    tokens.lex(statement, 0, statement.length(), rules);
                }
                t = normalizer(tokens).text();
            }
            text = t;
        }
        return t;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Fingerprint f && f.hash == hash && f.oversized == oversized;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(hash);
    }

    @Override
    public String toString() {
        return String.format("%016x %s", hash, text());
    }
}
