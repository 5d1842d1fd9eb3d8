package io.memogate.estimator.lexer;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The lexer's facade: splits a text into statements and, for each, classifies it, fingerprints it, bounds its
 * relations and reads a setting change, lexing the text once: the fingerprint and the relation bound are
 * computed token by token in that pass, the classification and the setting change read the stored tokens
 * after it. Work and memory are bounded: a statement longer than {@code maxStatementChars} keeps the tokens
 * of its first {@code maxStatementChars} characters only and is fingerprinted by length and samples
 * ({@link Fingerprint}); its relation bound is counted over all its tokens as they stream past, so a large
 * statement never slips under the bypass threshold.
 *
 * <p>The dialect supplies the {@link LexicalRules} the text is lexed by and the {@link StatementReader} that
 * reads setting changes and code blocks in its language; the rest is shared.
 *
 * <p>Thread-safe: an analyzer holds only its rules, reader and limit. {@link #analyze(String, TokenStream)} lets
 * a thread reuse one token stream; {@link #analyze(String)} allocates one per call. Never throws on any text.
 */
public final class LexicalAnalyzer {

    /** 1 MiB of characters. */
    public static final int DEFAULT_MAX_STATEMENT_CHARS = 1 << 20;
    private static final int NO_WORD = Keyword.NONE.ordinal();
    private static final int EXECUTE = Keyword.EXECUTE.ordinal();
    private static final int DO = Keyword.DO.ordinal();
    private static final int SET = Keyword.SET.ordinal();
    private static final int RESET = Keyword.RESET.ordinal();
    private static final int SET_CONFIG = Keyword.SET_CONFIG.ordinal();
    private static final int PARAM = TokenKind.PARAM.ordinal();
    private static final int PLACEHOLDER = TokenKind.PLACEHOLDER.ordinal();
    /** What {@link #analyze(String)} allocates up front at most: 16 Ki tokens, 176 kB. */
    private static final int MAX_INITIAL_TOKENS = 1 << 14;

    private final LexicalRules rules;
    private final StatementReader reader;
    private final int maxStatementChars;

    public LexicalAnalyzer(LexicalRules rules, StatementReader reader) {
        this(rules, reader, DEFAULT_MAX_STATEMENT_CHARS);
    }

    public LexicalAnalyzer(LexicalRules rules, StatementReader reader, int maxStatementChars) {
        if (maxStatementChars < 1) {
            throw new IllegalArgumentException("maxStatementChars must be at least 1, was " + maxStatementChars);
        }
        this.rules = Objects.requireNonNull(rules, "rules");
        this.reader = Objects.requireNonNull(reader, "reader");
        this.maxStatementChars = maxStatementChars;
    }

    /** The rules texts are lexed by. */
    public LexicalRules rules() {
        return rules;
    }

    /** What the dialect reads off statements in its own language: setting changes, code blocks. */
    public StatementReader reader() {
        return reader;
    }

    /** All tokens of {@code text}, lexed by this analyzer's rules. */
    public TokenStream tokens(String text) {
        return TokenStream.of(text, rules);
    }

    /** The longest statement normalized whole; longer ones are fingerprinted by length and samples. */
    public int maxStatementChars() {
        return maxStatementChars;
    }

    public LexicalAnalysis analyze(String sql) {
        // Sized for the text (SQL runs about one token per five characters), so the arrays seldom grow.
        return analyze(sql, new TokenStream(Math.min(sql.length() / 4, MAX_INITIAL_TOKENS)));
    }

    /** As {@link #analyze(String)}, with a token stream the calling thread owns; its contents are replaced. */
    public LexicalAnalysis analyze(String sql, TokenStream scratch) {
        Objects.requireNonNull(sql, "sql");
        Objects.requireNonNull(scratch, "scratch");
        char[] chars = scratch.charsOf(sql); // lexed and hashed from the array; see SqlLexer
        Collector collector = new Collector(sql, chars, rules, scratch, maxStatementChars, true);
        StatementSplitter splitter = new StatementSplitter(chars, sql.length(), rules, collector);
        List<StatementAnalysis> statements = new ArrayList<>(1);
        while (splitter.next()) {
            statements.add(statement(sql, splitter.start(), splitter.end(), collector));
            collector.reset();
        }
        return new LexicalAnalysis(statements, splitter.emptyStatements());
    }

    /**
     * The statements' cache keys only: what {@link #analyze(String, TokenStream)} would give as their
     * fingerprint hashes and oversize, from the same single pass over the text but without storing the tokens,
     * classifying or bounding the statements. A cache hit needs nothing more; a miss then analyzes the text.
     */
    public StatementKeys keys(String sql, TokenStream scratch) {
        Objects.requireNonNull(sql, "sql");
        Objects.requireNonNull(scratch, "scratch");
        char[] chars = scratch.charsOf(sql);
        Collector collector = new Collector(sql, chars, rules, scratch, maxStatementChars, false);
        StatementSplitter splitter = new StatementSplitter(chars, sql.length(), rules, collector);
        StatementKeys keys = new StatementKeys();
        while (splitter.next()) {
            int start = splitter.start();
            int end = splitter.end();
            boolean oversized = end - start > maxStatementChars;
            keys.add(oversized ? Fingerprint.oversized(sql, start, end).hash() : collector.normalizer.hash(),
                    oversized ? 0 : collector.normalizer.sizeClass(), oversized,
                    collector.firstWord == EXECUTE || collector.firstWord == DO, collector.parameters,
                    collector.firstWord == SET || collector.firstWord == RESET || collector.callsSetConfig);
            collector.reset();
        }
        return keys;
    }

    private StatementAnalysis statement(String sql, int start, int end, Collector collector) {
        TokenStream tokens = collector.tokens;
        boolean oversized = end - start > maxStatementChars;
        Classification classification = Classification.of(tokens);
        Fingerprint fingerprint = oversized ? Fingerprint.oversized(sql, start, end)
                : Fingerprint.normalized(collector.normalizer.hash(), sql, rules, start, end);
        Optional<SettingChange> setting = switch (classification.kind()) {
            case SET, RESET, SELECT -> reader.settingChange(tokens);
            default -> Optional.empty();
        };
        StatementSize size = collector.normalizer.size();
        return new StatementAnalysis(new StatementSpan(start, end), classification, fingerprint,
                collector.counter.result(), setting, oversized,
                oversized ? size.scaledTo(collector.allTokens) : size);
    }

    /**
     * Keeps a statement's tokens and writes its normalized form up to the limit, and counts relations over
     * all of them: the fingerprint and the relation bound are done when the lexer reaches the statement's end.
     * For {@link #keys} ({@code analyzing} false) it only writes the normalized form and notes the first word
     * and whether there are parameters.
     */
    private static final class Collector implements TokenSink {
        private final String sql;
        private final char[] chars;
        private final LexicalRules rules;
        private final TokenStream tokens;
        private final RelationCounter counter = new RelationCounter();
        private final Normalizer normalizer;
        private final int maxChars;
        private final boolean analyzing;
        private int first = -1;
        private int firstWord = NO_WORD;
        /** The statement's tokens, also those past the limit. */
        private int allTokens;
        private boolean parameters;
        /** The statement names set_config: it may change a setting (counted by {@link #keys} only). */
        private boolean callsSetConfig;

        Collector(String sql, char[] chars, LexicalRules rules, TokenStream tokens, int maxChars, boolean analyzing) {
            this.sql = sql;
            this.chars = chars;
            this.rules = rules;
            this.tokens = tokens;
            this.maxChars = maxChars;
            this.analyzing = analyzing;
            tokens.reset(sql, chars, rules);
            this.normalizer = new Normalizer(tokens, chars);
        }

        @Override
        public void token(int kind, int word, int start, int end) {
            if (first < 0) {
                first = start;
                firstWord = word;
            }
            allTokens++;
            if (end - first <= maxChars) {
                normalizer.token(kind, word, start, end);
                if (analyzing) {
                    tokens.add(kind, word, start, end);
                }
            }
            if (analyzing) {
                counter.token(kind, word, start, end);
            } else if (kind == PARAM || kind == PLACEHOLDER) {
                parameters = true;
            } else if (word == SET_CONFIG) {
                callsSetConfig = true;
            }
        }

        void reset() {
            tokens.reset(sql, chars, rules);
            counter.reset();
            normalizer.reset();
            first = -1;
            firstWord = NO_WORD;
            allTokens = 0;
            parameters = false;
            callsSetConfig = false;
        }
    }
}
