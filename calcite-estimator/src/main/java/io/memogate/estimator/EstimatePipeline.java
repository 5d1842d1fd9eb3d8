package io.memogate.estimator;

import io.memogate.estimator.CompileEstimate.Parser;
import io.memogate.estimator.CompileEstimate.Search;
import io.memogate.estimator.calcite.LexicalFallback;
import io.memogate.estimator.calcite.QueryBlockBuilder;
import io.memogate.estimator.dialect.Dialect;
import io.memogate.estimator.dialect.DialectSettings;
import io.memogate.estimator.dialect.Rewriter;
import io.memogate.estimator.lexer.LexicalAnalysis;
import io.memogate.estimator.lexer.StatementAnalysis;
import io.memogate.estimator.lexer.StatementKind;
import io.memogate.estimator.lexer.StatementSize;
import io.memogate.estimator.lexer.TokenStream;
import io.memogate.estimator.planner.JoinSearch;
import io.memogate.estimator.planner.MemoryTerms;
import io.memogate.estimator.planner.PlannerWork;
import io.memogate.estimator.planner.QueryBlock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import org.apache.calcite.sql.SqlNode;

/**
 * The way from a statement to its estimate, with nothing remembered: what {@link EstimateCaches} runs on a
 * miss. A statement the server does not plan, or one naming at most one relation, bypasses; otherwise the
 * dialect rewrites and parses it, {@link QueryBlockBuilder} turns it into query blocks (the catalog's views
 * and inlinable functions expanded), the dialect's planner model gives the join searches and its memory
 * model their bytes; when Calcite cannot read it, or it nests too deep, {@link LexicalFallback} reads the
 * blocks off the tokens. EXECUTE, DO, REFRESH MATERIALIZED VIEW and calls of routines lead to other
 * statements ({@link IndirectQueries}), which it estimates through the caches again. Thread-safe.
 */
final class EstimatePipeline {

    /**
     * A statement naming at most one relation bypasses admission when what its text alone costs the planner
     * (a statement, a block, its tokens and lists of constants) is below this: well below the default static
     * threshold (1 MiB), so a statement the bypass lets through would have passed without a gateway anyway,
     * and over ten times a typical statement of a hundred tokens. Above it the statement is estimated by its
     * size, from the lexer's counts, without parsing.
     */
    static final long BYPASS_BELOW_BYTES = 512 * 1024;

    private final Dialect<?> dialect;
    private final int maxParseDepth;
    private final StatementEstimates estimates;
    private final IndirectQueries indirect;
    private final LexicalFallback fallback = new LexicalFallback();
    // A LongAdder: estimates run on every event loop at once, and the count is only read at scrape time.
    private final LongAdder lexicalFallbacks = new LongAdder();

    /** @param estimates how the statements a statement leads to are estimated: through the caches wrapping this */
    EstimatePipeline(Dialect<?> dialect, int maxParseDepth, StatementEstimates estimates) {
        this.dialect = Objects.requireNonNull(dialect, "dialect");
        this.maxParseDepth = maxParseDepth;
        this.estimates = Objects.requireNonNull(estimates, "estimates");
        this.indirect = new IndirectQueries(dialect.analyzer(), estimates);
    }

    /** Estimates computed from the token stream so far. */
    long lexicalFallbacks() {
        return lexicalFallbacks.sum();
    }

    /**
     * The text's statements estimated in order, each through the caches. A SET, RESET or constant set_config
     * among them changes the settings the statements after it are planned under: the server runs a text's
     * statements in turn (SET LOCAL too, in the implicit transaction of a text of several), and stops at the
     * first that fails.
     */
    List<CompileEstimate> analyzed(String text, EstimateContext context, TokenStream tokens) {
        LexicalAnalysis analysis = dialect.analyzer().analyze(text, tokens);
        List<CompileEstimate> all = new ArrayList<>(analysis.statements().size());
        EstimateContext current = context;
        for (StatementAnalysis statement : analysis.statements()) {
            all.add(estimates.statement(text, statement, current, true));
            if (statement.settingChange().isPresent()) {
                current = current.under(IndirectQueries.applied(statement.settingChange().get(), current.settings(),
                        context.settings()));
            }
        }
        return List.copyOf(all);
    }

    /**
     * Whether the statement's estimate is the same wherever its fingerprint is: not for EXECUTE followed to its
     * prepared statement (which the session may prepare again), DO (its body is a constant, which the
     * fingerprint leaves out) or REFRESH MATERIALIZED VIEW (the view's query is cached instead: caching the
     * statement too would nest one computation of the cache inside another, which can deadlock).
     */
    static boolean keyedByFingerprint(StatementAnalysis st, boolean followExecute) {
        return switch (st.kind()) {
            case EXECUTE -> !followExecute;
            case DO -> false;
            case REFRESH_MATERIALIZED_VIEW -> !st.classification().isPlanned();
            default -> true;
        };
    }

    /**
     * The statement estimated afresh; for a statement of a catalog that runs routines, the largest of its
     * own estimate and those of the routines it runs. May throw on a failure no path below foresaw.
     *
     * @param followExecute false for a statement that is itself what an EXECUTE runs
     */
    CompileEstimate statement(String text, StatementAnalysis st, EstimateContext context, boolean followExecute) {
        if (st.kind() == StatementKind.EXECUTE && followExecute) {
            return indirect.execute(st, context);
        }
        if (st.kind() == StatementKind.DO) {
            return indirect.doBlock(text, st, context);
        }
        if (st.kind() == StatementKind.REFRESH_MATERIALIZED_VIEW && st.classification().isPlanned()) {
            return indirect.refresh(st, context);
        }
        CompileEstimate own = fresh(text, st, context);
        return context.catalog().runsRoutines() ? indirect.withCalls(text, st, context, own) : own;
    }

    /** The estimate of a statement whose estimation threw {@code failure}: a lexical star, else the fixed cost. */
    CompileEstimate failed(StatementAnalysis st, EstimateContext context, Throwable failure) {
        try {
            return lexical(st, null, context, "estimation failed (" + failure + "); relation bound as a star",
                    LexicalFallback.star(st.relations()));
        } catch (RuntimeException | StackOverflowError again) {
            return CompileEstimate.builder(st.fingerprint().text(), st.fingerprint().hash(), st.relations())
                    .estimatedBytes(dialect.memory().bytes(PlannerWork.NONE))
                    .reason("estimation failed (" + again + "): only the fixed cost is counted")
                    .capped(true)
                    .terms(MemoryTerms.of(PlannerWork.NONE))
                    .build();
        }
    }

    /** The estimate of a statement read from its own text: a bypass, or what the planner model makes of it. */
    private CompileEstimate fresh(String text, StatementAnalysis st, EstimateContext context) {
        if (!st.classification().isPlanned()) {
            return CompileEstimate.bypass(st, st.kind() + " is not planned by the server");
        }
        if (st.relationBound().atMostOneRelation()
                && dialect.bypassesOneRelation(st.span().end() - st.span().start()) && (st.oversized()
                || !CatalogExpansions.named(text.substring(st.span().start(), st.span().end()), context.catalog(),
                        dialect.analyzer(), context.settings().groupsPartitionwise()))) {
            StatementSize size = st.size();
            PlannerWork work = new PlannerWork(List.of(), 1, 0).withText(size.plainTokens(), size.listElements(),
                    size.valueRows(), size.valueCells());
            long bytes = dialect.memory().bytes(work);
            if (bytes < BYPASS_BELOW_BYTES) {
                return CompileEstimate.bypass(st, "at most one relation: no join search");
            }
            return CompileEstimate.builder(st.fingerprint().text(), st.fingerprint().hash(), st.relations())
                    .blocks(1)
                    .estimatedBytes(bytes)
                    .parser(Parser.LEXICAL)
                    .reason("at most one relation, but " + sizeOf(size) + ": estimated by its size, not parsed")
                    .terms(MemoryTerms.of(work))
                    .build();
        }
        return plan(text, st, context);
    }

    /** The statement's size in words, for a reason. */
    private static String sizeOf(StatementSize size) {
        StringBuilder out = new StringBuilder().append(size.plainTokens()).append(" tokens");
        if (size.listElements() > 0) {
            out.append(", ").append(size.listElements()).append(" constants in IN or ARRAY lists");
        }
        if (size.valueCells() > 0) {
            out.append(", ").append(size.valueRows()).append(" VALUES rows of ").append(size.valueCells())
                    .append(" constants");
        }
        return out.toString();
    }

    private CompileEstimate plan(String text, StatementAnalysis st, EstimateContext context) {
        if (st.oversized()) {
            int chars = st.span().end() - st.span().start();
            return lexical(st, null, dialect.tokensOfOversized(chars), context, "statement of " + chars
                    + " characters is over the lexer's maximum: estimated by size, its relation bound as a star",
                    LexicalFallback.star(st.relations()));
        }
        String query = st.classification().hasQueryText()
                ? st.classification().queryText(text)
                : text.substring(st.span().start(), st.span().end());
        TokenStream tokens = dialect.analyzer().tokens(query);
        if (st.maxNestingDepth() > maxParseDepth) {
            return lexical(st, tokens, context, "nesting depth " + st.maxNestingDepth()
                    + " is over " + maxParseDepth + ": not parsed, lexical star estimate per block", null);
        }
        Rewriter.Rewrite rewrite;
        QueryBlockBuilder.Translation translation;
        try {
            rewrite = dialect.rewriter().rewrite(query);
            SqlNode node = dialect.parse(rewrite.text());
            translation = new QueryBlockBuilder(rewrite.materialized(), rewrite.notMaterialized(),
                    new CatalogExpansions(context.catalog(), dialect, fallback, maxParseDepth))
                    .translate(node);
        } catch (Exception | StackOverflowError e) {
            String message = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
            if (message.length() > 120) {
                message = message.substring(0, 120) + "...";
            }
            return lexical(st, tokens, context,
                    "Calcite could not read it (" + message + "): lexical star estimate per block", null);
        }
        return estimate(st, context, translation.block(), tokens.size() + translation.viewTokens(), Parser.CALCITE,
                calciteReason(rewrite, translation));
    }

    /** What the Calcite path did besides parsing: rewrites, expansions, what it could not read or tie. */
    private static String calciteReason(Rewriter.Rewrite rewrite, QueryBlockBuilder.Translation translation) {
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
        return reason.toString();
    }

    /**
     * A lexical estimate: from {@code tokens} when there are any, else from {@code block} (a star of the
     * relation bound, for a statement whose tokens are not at hand: then its expressions are not counted).
     */
    private CompileEstimate lexical(StatementAnalysis st, TokenStream tokens, EstimateContext context, String why,
                                    QueryBlock block) {
        return lexical(st, tokens, tokens == null ? st.size().tokens() : tokens.size(), context, why, block);
    }

    private CompileEstimate lexical(StatementAnalysis st, TokenStream tokens, int tokenCount, EstimateContext context,
                                    String why, QueryBlock block) {
        QueryBlock b = block != null ? block : fallback.estimate(tokens);
        lexicalFallbacks.increment();
        return estimate(st, context, b, tokenCount, Parser.LEXICAL, why);
    }

    private CompileEstimate estimate(StatementAnalysis st, EstimateContext context, QueryBlock statement, int tokens,
                                     Parser parser, String why) {
        // cursor_tuple_fraction (0.1 unless a session changes it) plans a cursor's query for its first rows.
        QueryBlock block = st.kind() == StatementKind.DECLARE_CURSOR ? statement.forFirstRows() : statement;
        // The lists of constants are counted apart from the other tokens (StatementSize).
        StatementSize size = st.size();
        PlannerWork work = planned(dialect, context.settings(), context.catalog(), block)
                .withText(Math.max(0, tokens - size.listTokens()), size.listElements(), size.valueRows(),
                        size.valueCells());
        String firstRows = work.searches().stream().anyMatch(JoinSearch::fastStart)
                ? "; planned for its first rows" : "";
        double pairs = work.totalJoinPairs();
        Optional<JoinSearch> largest = work.largest();
        Search search = largest.map(s -> switch (s) {
            case JoinSearch.Geqo g -> Search.GEQO;
            case JoinSearch.Greedy g -> Search.GREEDY;
            case JoinSearch.DynamicProgramming d -> Search.DP;
            case JoinSearch.Cascades c -> Search.CASCADES;
        }).orElse(Search.NONE);
        double seconds = work.predictedSeconds();
        String time = seconds > 0 ? String.format(Locale.ROOT, "; search predicted to take %s%.3g s",
                work.exact() ? "" : "at least ", seconds) : "";
        String dominant = largest.map(s -> "; largest problem " + s.relations() + " relations by " + search
                + (s.exact() ? "" : " (count capped, extrapolated)")).orElse("; no join search");
        return CompileEstimate.builder(st.fingerprint().text(), st.fingerprint().hash(), st.relations())
                .blocks(work.blocks() + work.setOperationBranches())
                .memoPairs(pairs >= Long.MAX_VALUE ? Long.MAX_VALUE : Math.round(pairs))
                .estimatedBytes(dialect.memory().bytes(work))
                .parser(parser)
                .reason(why + dominant + firstRows + time)
                .largestProblem(largest.map(JoinSearch::relations).orElse(0))
                .search(search)
                .capped(!work.exact())
                .terms(MemoryTerms.of(work))
                .searchSeconds(seconds)
                .build();
    }

    /** The dialect's planner's work for {@code block}; the settings are the dialect's, as the estimator checked. */
    private static <S extends DialectSettings> PlannerWork planned(Dialect<S> dialect, DialectSettings settings,
                                                                   Catalog catalog, QueryBlock block) {
        return dialect.planner(dialect.settings(settings), catalog).plan(block);
    }
}
