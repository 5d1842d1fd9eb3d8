package io.memogate.estimator;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.memogate.estimator.dialect.DialectSettings;
import io.memogate.estimator.lexer.LexicalAnalyzer;
import io.memogate.estimator.lexer.StatementAnalysis;
import io.memogate.estimator.lexer.StatementKeys;
import io.memogate.estimator.lexer.TextSkeleton;
import io.memogate.estimator.lexer.TokenStream;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What the estimator remembers, wrapped around the {@link EstimatePipeline} that computes it. Every key
 * holds what an estimate depends on besides the text: the settings and the catalog (a statement's prepared
 * statements too, but only EXECUTE reads them, and it is never cached under its own key). Looked up in turn:
 * <ol>
 *   <li>a text seen before is answered from a cache of texts, without lexing it again (what a driver sends
 *   for every execution of a prepared statement). It keeps the texts that had to be estimated and those with
 *   parameters, not every text with known statements and new constants: those are seldom sent twice; nor
 *   texts longer than the lexer's maximum, which go straight to the pipeline;
 *   <li>a text that differs from one seen before only inside its constants and comments (an application
 *   writing its constants into the text) is answered by its {@link TextSkeleton} key: one pass over the
 *   characters, the lexer called only where a constant, a quoted identifier or a comment may start;
 *   <li>a bounded cache keyed by fingerprint answers repeated statements written differently (case,
 *   spacing): a first pass over the text only splits and fingerprints it, and when every statement's key is
 *   cached that is all the work; otherwise the pipeline analyses the text, and each statement it estimates
 *   comes back here to be looked up and, on a miss, estimated and kept;
 *   <li>a routine's largest query is kept per routine, so each caller of a long routine does not read it again.
 * </ol>
 * Caffeine's maintenance (eviction, draining the read buffers) runs on the calling thread: handing it to the
 * common pool wakes one of its threads every few hundred lookups, a futex call and a context switch on a
 * machine whose cores are what the proxy trades for throughput. Thread-safe.
 */
final class EstimateCaches implements StatementEstimates {

    /**
     * What the cache of texts holds at most, in bytes of text (two a character, as a String holding any
     * non-Latin-1 character stores them), plus {@link #TEXT_ENTRY_BYTES} an entry.
     */
    static final long TEXT_CACHE_BYTES = 16L << 20;
    /** A text cache entry's key, list and estimates besides the text itself, roughly. */
    private static final int TEXT_ENTRY_BYTES = 512;

    /**
     * A statement's key: its fingerprint, which collapses lists of constants, and the size class of those lists
     * ({@link io.memogate.estimator.lexer.StatementSize#sizeClass()}), which tells a list of 10 constants from
     * one of 100,000.
     */
    private record Key(long hash, int sizeClass, boolean oversized, DialectSettings settings, Catalog catalog) {
    }

    /** A whole text with what its estimates depend on besides it (none of its statements is an EXECUTE). */
    private record TextKey(String text, DialectSettings settings, Catalog catalog) {
    }

    /** A text's {@link TextSkeleton} key, likewise. */
    private record SkeletonKey(long skeleton, DialectSettings settings, Catalog catalog) {
    }

    /** A routine's largest query under one set of settings and one catalog; the routine compared by content. */
    private record RoutineKey(RoutineDefinitions.Routine routine, DialectSettings settings, Catalog catalog) {
    }

    private final LexicalAnalyzer analyzer;
    private final EstimatePipeline pipeline;
    /**
     * Each thread's token stream for the statement text, reused: the per-statement path (lexer, fingerprint,
     * cache hit) then allocates no arrays once the stream has grown to the thread's largest statement (at
     * most {@link LexicalAnalyzer#DEFAULT_MAX_STATEMENT_CHARS}-sized). Estimates of EXECUTE and EXPLAIN inner
     * texts take their own streams.
     */
    private final ThreadLocal<TokenStream> scratch = ThreadLocal.withInitial(TokenStream::new);
    private final Cache<Key, CompileEstimate> statements;
    private final Cache<TextKey, List<CompileEstimate>> texts;
    private final Cache<SkeletonKey, List<CompileEstimate>> skeletons;
    /** Per routine its largest query (empty: none). */
    private final Cache<RoutineKey, Optional<CompileEstimate>> routines;
    // LongAdders: estimates run on every event loop at once, and the counts are only read at scrape time.
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();

    /**
     * @param cacheSize entries each cache of statements, skeletons and routines holds at most; 0 keeps nothing
     * @param pipeline the pipeline these caches wrap, given them to estimate through
     */
    EstimateCaches(LexicalAnalyzer analyzer, long cacheSize, Function<StatementEstimates, EstimatePipeline> pipeline) {
        this.analyzer = Objects.requireNonNull(analyzer, "analyzer");
        this.statements = Caffeine.newBuilder().executor(Runnable::run).maximumSize(cacheSize).build();
        this.texts = Caffeine.newBuilder()
                .executor(Runnable::run)
                .maximumWeight(cacheSize == 0 ? 0 : TEXT_CACHE_BYTES)
                .<TextKey, List<CompileEstimate>>weigher((key, estimates) ->
                        (int) Math.min(Integer.MAX_VALUE, 2L * key.text().length() + TEXT_ENTRY_BYTES))
                .build();
        this.skeletons = Caffeine.newBuilder().executor(Runnable::run).maximumSize(cacheSize).build();
        this.routines = Caffeine.newBuilder().executor(Runnable::run).maximumSize(cacheSize).build();
        this.pipeline = pipeline.apply(this);
    }

    /** Statements answered from a cache so far. */
    long hits() {
        return hits.sum();
    }

    /** Statements estimated afresh so far. */
    long misses() {
        return misses.sum();
    }

    /** Estimates the pipeline read off the tokens so far. */
    long lexicalFallbacks() {
        return pipeline.lexicalFallbacks();
    }

    /** Texts in the cache of texts (for tests: which texts it keeps is a question of memory). */
    long cachedTexts() {
        texts.cleanUp();
        return texts.estimatedSize();
    }

    /**
     * One estimate per statement of {@code text} with tokens, in order, for a statement sent with these settings,
     * prepared statements and catalog. The context an estimate is made in ({@link EstimateContext#of}) is made
     * only when one is: a cache hit, nearly every statement a proxy admits, makes none.
     */
    List<CompileEstimate> estimateAll(String text, DialectSettings settings, PreparedStatementTexts prepared,
                                      Catalog catalog) {
        TokenStream tokens = scratch.get();
        if (text.length() > analyzer.maxStatementChars()) {
            // Generated bulk text (a huge VALUES or IN list): hashing it whole for the cache of texts, and a
            // first pass for the keys before the analysis, would each cost as much as lexing it once more;
            // and kept whole, one such text would crowd out thousands of others.
            return pipeline.analyzed(text, EstimateContext.of(settings, prepared, catalog), tokens);
        }
        TextKey textKey = new TextKey(text, settings, catalog);
        List<CompileEstimate> known = texts.getIfPresent(textKey);
        if (known != null) {
            hits.add(known.size());
            return known;
        }
        long skeleton = TextSkeleton.key(text, tokens, analyzer.rules());
        SkeletonKey skeletonKey = skeleton == TextSkeleton.NONE ? null
                : new SkeletonKey(skeleton, settings, catalog);
        if (skeletonKey != null) {
            known = skeletons.getIfPresent(skeletonKey);
            if (known != null) {
                hits.add(known.size());
                if (text.indexOf('$') >= 0 || text.indexOf('?') >= 0) {
                    texts.put(textKey, known); // perhaps a prepared statement's text: see below
                }
                return known;
            }
        }
        EstimateContext context = EstimateContext.of(settings, prepared, catalog);
        StatementKeys keys = analyzer.keys(text, tokens);
        if (keys.needsText()) {
            return pipeline.analyzed(text, context, tokens);
        }
        List<CompileEstimate> estimates = cached(keys, context);
        if (estimates == null) {
            estimates = pipeline.analyzed(text, context, tokens);
            texts.put(textKey, estimates);
        } else if (keys.parameters()) {
            // A known statement with other constants is seldom sent again verbatim (keeping every such
            // text would fill the cache with texts seen once); a prepared statement's text is, at every Bind.
            texts.put(textKey, estimates);
        }
        if (skeletonKey != null) {
            skeletons.put(skeletonKey, estimates);
        }
        return estimates;
    }

    /** The estimates cached under every statement's key, counted as hits; null when one is not cached. */
    private List<CompileEstimate> cached(StatementKeys keys, EstimateContext context) {
        CompileEstimate[] found = new CompileEstimate[keys.size()];
        for (int i = 0; i < found.length; i++) {
            found[i] = statements.getIfPresent(new Key(keys.hash(i), keys.sizeClass(i), keys.oversized(i),
                    context.settings(),
                    context.catalog()));
            if (found[i] == null) {
                return null;
            }
        }
        hits.add(found.length);
        return List.of(found);
    }

    @Override
    public CompileEstimate statement(String text, StatementAnalysis st, EstimateContext context,
                                     boolean followExecute) {
        try {
            if (!EstimatePipeline.keyedByFingerprint(st, followExecute)) {
                return pipeline.statement(text, st, context, followExecute);
            }
            Key key = new Key(st.fingerprint().hash(), st.sizeClass(), st.fingerprint().oversized(),
                    context.settings(), context.catalog());
            CompileEstimate known = statements.getIfPresent(key);
            if (known != null) {
                hits.increment();
                return known;
            }
            misses.increment();
            if (!context.catalog().runsRoutines()) {
                return statements.get(key, k -> pipeline.statement(text, st, context, followExecute));
            }
            // Following calls estimates other statements, which must not happen inside this cache's computation
            // of a key: a nested computation in the same cache can deadlock. Two threads may compute it at once.
            int outer = context.cut().open();
            CompileEstimate estimate = pipeline.statement(text, st, context, followExecute);
            if (context.cut().close(outer, context.following().size()) || context.following().isEmpty()) {
                statements.put(key, estimate);
            }
            return estimate;
        } catch (RuntimeException | StackOverflowError e) {
            // Not expected: each path of the pipeline already falls back. Still never fail the caller's
            // statement, and keep what this gives out of the cache.
            return pipeline.failed(st, context, e);
        }
    }

    /**
     * Remembered per routine, settings and catalog, as the statements are, when complete
     * ({@link EstimateContext.CallsCut}).
     */
    @Override
    public CompileEstimate routine(RoutineDefinitions.Routine routine, EstimateContext context,
                                   Supplier<CompileEstimate> largest) {
        RoutineKey key = new RoutineKey(routine, context.settings(), context.catalog());
        Optional<CompileEstimate> known = routines.getIfPresent(key);
        if (known != null) {
            return known.orElse(null);
        }
        int outer = context.cut().open();
        CompileEstimate computed = largest.get();
        if (context.cut().close(outer, context.following().size())) {
            routines.put(key, Optional.ofNullable(computed));
        }
        return computed;
    }
}
