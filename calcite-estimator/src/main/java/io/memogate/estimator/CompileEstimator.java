package io.memogate.estimator;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.memogate.estimator.CompileEstimate.Parser;
import io.memogate.estimator.CompileEstimate.Search;
import io.memogate.estimator.calcite.LexicalFallback;
import io.memogate.estimator.calcite.PostgresParser;
import io.memogate.estimator.calcite.PostgresRewriter;
import io.memogate.estimator.calcite.QueryBlockBuilder;
import io.memogate.estimator.graph.CsgCmpCounter;
import io.memogate.estimator.lexer.LexicalAnalysis;
import io.memogate.estimator.lexer.LexicalAnalyzer;
import io.memogate.estimator.lexer.PlpgsqlStatements;
import io.memogate.estimator.lexer.StatementAnalysis;
import io.memogate.estimator.lexer.StatementKeys;
import io.memogate.estimator.lexer.StatementKind;
import io.memogate.estimator.lexer.TextSkeleton;
import io.memogate.estimator.lexer.TokenStream;
import io.memogate.estimator.planner.JoinSearch;
import io.memogate.estimator.planner.MemoryModel;
import io.memogate.estimator.planner.MemoryTerms;
import io.memogate.estimator.planner.PlannerSettings;
import io.memogate.estimator.planner.PlannerWork;
import io.memogate.estimator.planner.PostgresPlannerModel;
import io.memogate.estimator.planner.QueryBlock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import org.apache.calcite.sql.SqlNode;

/**
 * SQL text to compile-memory estimates (docs/DESIGN.md, "Data flow of one statement", step 3):
 * <ol>
 *   <li>a text seen before with the same settings and catalog is answered from a cache of texts, without
 *   lexing it again (what a driver sends for every execution of a prepared statement). It keeps the texts
 *   that had to be estimated and those with parameters, not every text with known statements and new
 *   constants: those are seldom sent twice; nor texts longer than the lexer's maximum, which go straight to
 *   the analysis;
 *   <li>a text that differs from one seen before only inside its constants and comments (an application
 *   writing its constants into the text) is answered by its {@link TextSkeleton} key: one pass over the
 *   characters, the lexer called only where a constant, a quoted identifier or a comment may start;
 *   <li>a bounded Caffeine cache keyed by fingerprint, planner settings and catalog answers repeated
 *   statements written differently (case, spacing): a first pass over the text only splits and
 *   fingerprints it, and when every statement's key is cached that is all the work;
 *   <li>otherwise the lexer analyses the text (classifies each statement and bounds its relations, in the
 *   same kind of single pass): statements the server does not plan, and those naming at most one relation,
 *   bypass (their verdict is cached like an estimate): no parsing, unless the one relation is a view or an
 *   inlinable SQL function the {@link Catalog} knows;
 *   <li>otherwise the planned query (inside EXPLAIN, CREATE TABLE AS, DECLARE, COPY, PREPARE, ... as the
 *   lexer's classification locates it) is rewritten where Babel needs it ({@link PostgresRewriter}),
 *   parsed by Calcite and turned into query blocks ({@link QueryBlockBuilder}), the catalog's views and
 *   inlinable functions expanded into their queries (and REFRESH MATERIALIZED VIEW estimated as the view's
 *   query);
 *   <li>when that fails, or the statement nests deeper than Calcite's recursive parser safely goes, the
 *   {@link LexicalFallback} reads the blocks off the tokens; statements longer than the lexer's maximum
 *   are estimated from their relation bound alone;
 *   <li>the PostgreSQL planner model gives the join searches, the memory model their bytes.
 * </ol>
 * A DO block is estimated as the largest of the queries its PL/pgSQL body runs ({@link PlpgsqlStatements}),
 * each estimated as above, and so is a statement's call of a PL/pgSQL or SQL routine the catalog knows
 * ({@link RoutineDefinitions}) when the routine's largest query is larger than the statement's own; such
 * an estimate says {@link CompileEstimate#plannedWhileRunning()}.
 * Thread-safe, and never throws on any text: every failure becomes an estimate whose reason says which
 * path produced it.
 */
public final class CompileEstimator {

    /** Deepest parenthesis nesting handed to Calcite; deeper statements go to the lexical fallback. */
    public static final int DEFAULT_MAX_PARSE_DEPTH = 100;
    public static final int DEFAULT_CACHE_SIZE = 10_000;
    /**
     * What the cache of texts holds at most, in bytes of text (two a character, as a String holding any
     * non-Latin-1 character stores them), plus {@link #TEXT_ENTRY_BYTES} an entry.
     */
    public static final long DEFAULT_TEXT_CACHE_BYTES = 16L << 20;
    /** A text cache entry's key, list and estimates besides the text itself, roughly. */
    private static final int TEXT_ENTRY_BYTES = 512;

    private record Key(long hash, boolean oversized, PlannerSettings settings, Catalog catalog) {
    }

    /** A whole text with what its estimates depend on besides it (none of its statements is an EXECUTE). */
    private record TextKey(String text, PlannerSettings settings, Catalog catalog) {
    }

    /** A text's {@link TextSkeleton} key, likewise. */
    private record SkeletonKey(long skeleton, PlannerSettings settings, Catalog catalog) {
    }

    /** Immutable and thread-safe: one for every count. */
    private static final CsgCmpCounter COUNTER = new CsgCmpCounter();

    private final LexicalAnalyzer analyzer;
    /**
     * Each thread's token stream for the statement text, reused: the per-statement path (lexer, fingerprint,
     * cache hit) then allocates no arrays once the stream has grown to the thread's largest statement (at
     * most {@link LexicalAnalyzer#DEFAULT_MAX_STATEMENT_CHARS}-sized). Estimates of EXECUTE and EXPLAIN inner
     * texts take their own streams.
     */
    private final ThreadLocal<TokenStream> scratch = ThreadLocal.withInitial(TokenStream::new);
    private final MemoryModel memory;
    private final int maxParseDepth;
    private final Cache<Key, CompileEstimate> cache;
    private final Cache<TextKey, List<CompileEstimate>> texts;
    private final Cache<SkeletonKey, List<CompileEstimate>> skeletons;
    private final PostgresParser parser = new PostgresParser();
    private final PostgresRewriter rewriter = new PostgresRewriter();
    private final LexicalFallback fallback = new LexicalFallback();
    private final IndirectQueries indirect;
    // LongAdders: estimates run on every event loop at once, and the counts are only read at scrape time.
    private final LongAdder lexicalFallbacks = new LongAdder();
    private final LongAdder cacheHits = new LongAdder();
    private final LongAdder cacheMisses = new LongAdder();

    public CompileEstimator() {
        this(new LexicalAnalyzer(), new MemoryModel(), DEFAULT_CACHE_SIZE, DEFAULT_MAX_PARSE_DEPTH);
    }

    public CompileEstimator(LexicalAnalyzer analyzer, MemoryModel memory, long cacheSize, int maxParseDepth) {
        this.analyzer = Objects.requireNonNull(analyzer, "analyzer");
        this.memory = Objects.requireNonNull(memory, "memory");
        if (cacheSize < 0 || maxParseDepth < 1) {
            throw new IllegalArgumentException("cacheSize must be >= 0 and maxParseDepth >= 1, were "
                    + cacheSize + " and " + maxParseDepth);
        }
        this.maxParseDepth = maxParseDepth;
        this.indirect = new IndirectQueries(analyzer, this::statement, cacheSize);
        // Maintenance (eviction, draining the read buffers) on the calling thread: handing it to the common
        // pool wakes one of its threads every few hundred lookups, a futex call and a context switch on a
        // machine whose cores are what the proxy trades for throughput.
        this.cache = Caffeine.newBuilder().executor(Runnable::run).maximumSize(cacheSize).build();
        this.texts = Caffeine.newBuilder()
                .executor(Runnable::run)
                .maximumWeight(cacheSize == 0 ? 0 : DEFAULT_TEXT_CACHE_BYTES)
                .<TextKey, List<CompileEstimate>>weigher((key, estimates) ->
                        (int) Math.min(Integer.MAX_VALUE, 2L * key.text().length() + TEXT_ENTRY_BYTES))
                .build();
        this.skeletons = Caffeine.newBuilder().executor(Runnable::run).maximumSize(cacheSize).build();
    }

    /** Cache hits and misses and lexical fallbacks so far; cheap, for metrics scrapes. */
    public EstimatorStatistics statistics() {
        return new EstimatorStatistics(cacheHits.sum(), cacheMisses.sum(), lexicalFallbacks.sum());
    }

    /** The largest estimate of the text's statements; for an empty text, a bypass saying so. */
    public CompileEstimate estimate(String sql, PlannerSettings settings) {
        return estimate(sql, settings, PreparedStatementTexts.NONE);
    }

    /** As {@link #estimate(String, PlannerSettings)}, finding EXECUTE's statements in {@code prepared}. */
    public CompileEstimate estimate(String sql, PlannerSettings settings, PreparedStatementTexts prepared) {
        return estimate(sql, settings, prepared, Catalog.NONE);
    }

    /**
     * As {@link #estimate(String, PlannerSettings, PreparedStatementTexts)}, with what {@code catalog}, that of
     * the database the statement runs in, tells: the parameterized index scans its indexes allow, and the
     * queries of the views, inlinable functions and refreshed materialized views the statement names.
     */
    public CompileEstimate estimate(String sql, PlannerSettings settings, PreparedStatementTexts prepared,
                                    Catalog catalog) {
        List<CompileEstimate> all = estimateAll(sql, settings, prepared, catalog);
        if (all.isEmpty()) {
            return bypass("", 0, 0, "empty statement: nothing to plan");
        }
        CompileEstimate largest = all.get(0);
        for (CompileEstimate e : all) {
            if (e.estimatedBytes() > largest.estimatedBytes() || largest.bypass() && !e.bypass()) {
                largest = e;
            }
        }
        return all.size() == 1 ? largest : largest.covering(all.size(), "largest of " + all.size() + " statements: ");
    }

    /** One estimate per statement with tokens, in order. */
    public List<CompileEstimate> estimateAll(String sql, PlannerSettings settings) {
        return estimateAll(sql, settings, PreparedStatementTexts.NONE);
    }

    public List<CompileEstimate> estimateAll(String sql, PlannerSettings settings, PreparedStatementTexts prepared) {
        return estimateAll(sql, settings, prepared, Catalog.NONE);
    }

    public List<CompileEstimate> estimateAll(String sql, PlannerSettings settings, PreparedStatementTexts prepared,
                                             Catalog catalog) {
        String text = sql == null ? "" : sql;
        EstimateContext context = EstimateContext.of(settings == null ? PlannerSettings.DEFAULTS : settings,
                prepared == null ? PreparedStatementTexts.NONE : prepared, catalog == null ? Catalog.NONE : catalog);
        TokenStream tokens = scratch.get();
        if (text.length() > analyzer.maxStatementChars()) {
            // Generated bulk text (a huge VALUES or IN list): hashing it whole for the cache of texts, and a
            // first pass for the keys before the analysis, would each cost as much as lexing it once more;
            // and kept whole, one such text would crowd out thousands of others.
            return analyzed(text, context, tokens);
        }
        TextKey textKey = new TextKey(text, context.settings(), context.catalog());
        List<CompileEstimate> known = texts.getIfPresent(textKey);
        if (known != null) {
            cacheHits.add(known.size());
            return known;
        }
        long skeleton = TextSkeleton.key(text, tokens);
        SkeletonKey skeletonKey = skeleton == TextSkeleton.NONE ? null
                : new SkeletonKey(skeleton, context.settings(), context.catalog());
        if (skeletonKey != null) {
            known = skeletons.getIfPresent(skeletonKey);
            if (known != null) {
                cacheHits.add(known.size());
                if (text.indexOf('$') >= 0 || text.indexOf('?') >= 0) {
                    texts.put(textKey, known); // perhaps a prepared statement's text: see below
                }
                return known;
            }
        }
        StatementKeys keys = analyzer.keys(text, tokens);
        if (keys.needsText()) {
            return analyzed(text, context, tokens);
        }
        List<CompileEstimate> estimates = cached(keys, context);
        if (estimates == null) {
            estimates = analyzed(text, context, tokens);
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

    /**
     * The text's statements estimated in order. A SET, RESET or constant set_config among them changes the
     * settings the statements after it are planned under: the server runs a text's statements in turn (SET LOCAL
     * too, in the implicit transaction of a text of several), and stops at the first that fails.
     */
    private List<CompileEstimate> analyzed(String text, EstimateContext context, TokenStream tokens) {
        LexicalAnalysis analysis = analyzer.analyze(text, tokens);
        List<CompileEstimate> estimates = new ArrayList<>(analysis.statements().size());
        EstimateContext current = context;
        for (StatementAnalysis statement : analysis.statements()) {
            estimates.add(statement(text, statement, current, true));
            if (statement.settingChange().isPresent()) {
                current = current.under(IndirectQueries.applied(statement.settingChange().get(), current.settings(),
                        context.settings()));
            }
        }
        return List.copyOf(estimates);
    }

    /** Texts in the cache of texts (for tests: which texts it keeps is a question of memory). */
    long cachedTexts() {
        texts.cleanUp();
        return texts.estimatedSize();
    }

    /** The estimates cached under every statement's key, counted as hits; null when one is not cached. */
    private List<CompileEstimate> cached(StatementKeys keys, EstimateContext context) {
        CompileEstimate[] found = new CompileEstimate[keys.size()];
        for (int i = 0; i < found.length; i++) {
            found[i] = cache.getIfPresent(new Key(keys.hash(i), keys.oversized(i), context.settings(),
                    context.catalog()));
            if (found[i] == null) {
                return null;
            }
        }
        cacheHits.add(found.length);
        return List.of(found);
    }

    private CompileEstimate statement(String text, StatementAnalysis st, EstimateContext context,
                                      boolean followExecute) {
        try {
            if (st.kind() == StatementKind.EXECUTE && followExecute) {
                return indirect.execute(st, context);
            }
            if (st.kind() == StatementKind.DO) {
                return indirect.doBlock(text, st, context); // its body is a constant, which its key leaves out
            }
            if (st.kind() == StatementKind.REFRESH_MATERIALIZED_VIEW && st.classification().isPlanned()) {
                // Not cached under its own key: its query is, and a nested cache computation could deadlock.
                return indirect.refresh(st, context);
            }
            Key key = new Key(st.fingerprint().hash(), st.fingerprint().oversized(), context.settings(),
                    context.catalog());
            CompileEstimate known = cache.getIfPresent(key);
            if (known != null) {
                cacheHits.increment();
                return known;
            }
            cacheMisses.increment();
            if (!context.catalog().runsRoutines()) {
                return cache.get(key, k -> fresh(text, st, context));
            }
            // Following calls estimates other statements, which must not happen inside this cache's computation
            // of a key: a nested computation in the same cache can deadlock. Two threads may compute it at once.
            int outer = context.cut().open();
            CompileEstimate estimate = indirect.withCalls(text, st, context, fresh(text, st, context));
            if (context.cut().close(outer, context.following().size()) || context.following().isEmpty()) {
                cache.put(key, estimate);
            }
            return estimate;
        } catch (RuntimeException | StackOverflowError e) {
            // Not expected: each path below already falls back. Still never fail the caller's statement.
            try {
                return lexical(st, null, context, "estimation failed (" + e + "); relation bound as a star",
                        LexicalFallback.star(st.relations()));
            } catch (RuntimeException | StackOverflowError again) {
                return CompileEstimate.builder(st.fingerprint().text(), st.fingerprint().hash(), st.relations())
                        .estimatedBytes(memory.bytes(PlannerWork.NONE))
                        .reason("estimation failed (" + again + "): only the fixed cost is counted")
                        .capped(true)
                        .terms(MemoryTerms.of(PlannerWork.NONE))
                        .build();
            }
        }
    }

    /** The estimate of a statement not in the cache: a bypass, or what the planner model makes of it. */
    private CompileEstimate fresh(String text, StatementAnalysis st, EstimateContext context) {
        if (!st.classification().isPlanned()) {
            return bypass(st, st.kind() + " is not planned by the server");
        }
        if (st.relationBound().atMostOneRelation() && (st.oversized()
                || !CatalogExpansions.named(text.substring(st.span().start(), st.span().end()), context.catalog()))) {
            return bypass(st, "at most one relation: no join search");
        }
        return plan(text, st, context);
    }

    private CompileEstimate plan(String text, StatementAnalysis st, EstimateContext context) {
        if (st.oversized()) {
            int chars = st.span().end() - st.span().start();
            return lexical(st, null, context, "statement of " + chars + " characters is over the lexer's maximum:"
                    + " estimated by size, its relation bound as a star", LexicalFallback.star(st.relations()));
        }
        String query = st.classification().hasQueryText()
                ? st.classification().queryText(text)
                : text.substring(st.span().start(), st.span().end());
        TokenStream tokens = TokenStream.of(query);
        if (st.maxNestingDepth() > maxParseDepth) {
            return lexical(st, tokens, context, "nesting depth " + st.maxNestingDepth()
                    + " is over " + maxParseDepth + ": not parsed, lexical star estimate per block", null);
        }
        PostgresRewriter.Rewrite rewrite;
        QueryBlockBuilder.Translation translation;
        try {
            rewrite = rewriter.rewrite(query);
            SqlNode node = parser.parse(rewrite.text());
            translation = new QueryBlockBuilder(rewrite.materialized(), rewrite.notMaterialized(),
                    new CatalogExpansions(context.catalog(), rewriter, parser, fallback, analyzer, maxParseDepth))
                    .translate(node);
        } catch (Exception | StackOverflowError e) {
            String message = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
            if (message.length() > 120) {
                message = message.substring(0, 120) + "...";
            }
            return lexical(st, tokens, context,
                    "Calcite could not read it (" + message + "): lexical star estimate per block", null);
        }
        StringBuilder reason = new StringBuilder("parsed by Calcite");
        if (!rewrite.notes().isEmpty()) {
            reason.append(" after rewrites (").append(String.join("; ", rewrite.notes())).append(')');
        }
        if (translation.viewsExpanded() > 0) {
            reason.append("; ").append(translation.viewsExpanded()).append(" view(s) expanded");
        }
        if (translation.functionsInlined() > 0) {
            reason.append("; ").append(translation.functionsInlined()).append(" SQL function call(s) inlined");
        }
        if (translation.readLexically() > 0) {
            reason.append(" (").append(translation.readLexically())
                    .append(" definition(s) Calcite could not read: read off their tokens, planned apart)");
        }
        if (translation.unattributedColumns() > 0) {
            reason.append("; ").append(translation.unattributedColumns())
                    .append(" unqualified column(s) not tied to a relation");
        }
        return estimate(st, context, translation.block(), tokens.size() + translation.viewTokens(), Parser.CALCITE,
                reason.toString());
    }

    /**
     * A lexical estimate: from {@code tokens} when there are any, else from {@code block} (a star of the
     * relation bound, for a statement whose tokens are not at hand: then its expressions are not counted).
     */
    private CompileEstimate lexical(StatementAnalysis st, TokenStream tokens, EstimateContext context, String why,
                                    QueryBlock block) {
        QueryBlock b = block != null ? block : fallback.estimate(tokens);
        lexicalFallbacks.increment();
        return estimate(st, context, b, tokens == null ? 0 : tokens.size(), Parser.LEXICAL, why);
    }

    private CompileEstimate estimate(StatementAnalysis st, EstimateContext context, QueryBlock statement, int tokens,
                                     Parser parser, String why) {
        // cursor_tuple_fraction (0.1 unless a session changes it) plans a cursor's query for its first rows.
        QueryBlock block = st.kind() == StatementKind.DECLARE_CURSOR ? statement.forFirstRows() : statement;
        PlannerWork work = new PostgresPlannerModel(context.settings(), COUNTER, context.catalog().indexes())
                .plan(block)
                .withTokens(tokens);
        long bytes = memory.bytes(work);
        String firstRows = work.searches().stream().anyMatch(JoinSearch::fastStart) ? "; planned for its first rows" : "";
        double pairs = work.totalJoinPairs();
        long memoPairs = pairs >= Long.MAX_VALUE ? Long.MAX_VALUE : Math.round(pairs);
        Optional<JoinSearch> largest = work.largest();
        Search search = largest.map(s -> s instanceof JoinSearch.Geqo ? Search.GEQO : Search.DP).orElse(Search.NONE);
        String dominant = largest.map(s -> "; largest problem " + s.relations() + " relations by " + search
                + (s.exact() ? "" : " (count capped, extrapolated)")).orElse("; no join search");
        return CompileEstimate.builder(st.fingerprint().text(), st.fingerprint().hash(), st.relations())
                .blocks(work.blocks())
                .memoPairs(memoPairs)
                .estimatedBytes(bytes)
                .parser(parser)
                .reason(why + dominant + firstRows)
                .largestProblem(largest.map(JoinSearch::relations).orElse(0))
                .search(search)
                .capped(!work.exact())
                .terms(MemoryTerms.of(work))
                .build();
    }

    static CompileEstimate bypass(StatementAnalysis st, String reason) {
        return bypass(st.fingerprint().text(), st.fingerprint().hash(), st.relations(), reason);
    }

    private static CompileEstimate bypass(String fingerprint, long hash, int relations, String reason) {
        return CompileEstimate.builder(fingerprint, hash, relations).bypass(true).reason(reason).build();
    }
}
