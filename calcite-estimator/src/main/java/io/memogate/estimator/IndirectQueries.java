package io.memogate.estimator;

import static io.memogate.estimator.CompileEstimate.bypass;

import io.memogate.estimator.dialect.DialectSettings;
import io.memogate.estimator.lexer.Keyword;
import io.memogate.estimator.lexer.LexicalAnalysis;
import io.memogate.estimator.lexer.LexicalAnalyzer;
import io.memogate.estimator.lexer.SettingChange;
import io.memogate.estimator.lexer.StatementAnalysis;
import io.memogate.estimator.lexer.StatementKind;
import io.memogate.estimator.lexer.StatementReader.CodeBlock;
import io.memogate.estimator.lexer.TokenKind;
import io.memogate.estimator.lexer.TokenStream;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The queries a statement has the server plan that are not in its text, estimated as statements of their
 * own: EXECUTE's prepared statement, REFRESH MATERIALIZED VIEW's query, the queries of a DO block's body and
 * of the routines a statement calls. Thread-safe, as the estimator that owns it; it remembers nothing itself,
 * the caches its {@link StatementEstimates} go through do.
 */
final class IndirectQueries {

    /** Deepest chain of routine calls followed: a routine's query that calls a routine, and so on. */
    static final int MAX_CALL_DEPTH = 8;

    private final LexicalAnalyzer analyzer;
    private final StatementEstimates estimates;

    IndirectQueries(LexicalAnalyzer analyzer, StatementEstimates estimates) {
        this.analyzer = Objects.requireNonNull(analyzer, "analyzer");
        this.estimates = Objects.requireNonNull(estimates, "estimates");
    }

    /** EXECUTE plans the statement the session prepared under its name. */
    CompileEstimate execute(StatementAnalysis st, EstimateContext context) {
        Optional<String> text = st.classification().name().flatMap(context.prepared()::textOf);
        if (text.isEmpty()) {
            return bypass(st, "EXECUTE of a prepared statement whose text is unknown");
        }
        String prefix = "EXECUTE " + st.classification().name().orElse("?") + ": ";
        String empty = "EXECUTE of an empty prepared statement";
        LexicalAnalysis inner = analyzer.analyze(text.get());
        if (!inner.isEmpty() && inner.statements().get(0).kind() == StatementKind.PREPARE) {
            // The prepared query itself: PREPARE is not planned, EXECUTE plans what it prepared.
            return planned(st, inner.statements().get(0).classification().queryText(text.get()), context, prefix,
                    empty);
        }
        return planned(st, text.get(), context, prefix, empty);
    }

    /**
     * The estimate of {@code query}, a text that {@code st} has the server plan though it does not hold it
     * (EXECUTE's prepared statement, REFRESH's view), said to be {@code st}'s with {@code prefix}; a bypass
     * giving {@code empty} as its reason when the query holds no statement.
     */
    private CompileEstimate planned(StatementAnalysis st, String query, EstimateContext context, String prefix,
                                    String empty) {
        LexicalAnalysis inner = analyzer.analyze(query);
        if (inner.isEmpty()) {
            return bypass(st, empty);
        }
        return estimates.statement(query, inner.statements().get(0), context, false).covering(1, prefix);
    }

    /**
     * DO: PL/pgSQL plans each query of the block's body when it reaches it, so the block needs what its
     * largest query needs, at some point while it runs. The dialect reads the bodies of the languages it knows
     * (PostgreSQL's: PL/pgSQL); others are not read.
     */
    CompileEstimate doBlock(String text, StatementAnalysis st, EstimateContext context) {
        CodeBlock block = analyzer.reader().codeBlock(analyzer.tokens(text.substring(st.span().start(),
                st.span().end())));
        if (block.queries().isEmpty()) {
            return bypass(st, "DO block in language " + block.language() + ": the queries it runs are not read");
        }
        List<String> queries = block.queries().get();
        CompileEstimate largest = largestOf(queries, context);
        if (largest == null || largest.bypass()) {
            return bypass(st, "DO block: " + (queries.isEmpty() ? "its body runs no query"
                    : "none of the " + queries.size() + " queries its body runs has a join search"));
        }
        return largest.plannedWhileRunning("DO block, largest of the " + queries.size() + " queries its body runs: ",
                st.fingerprint());
    }

    /**
     * {@code own}, the statement's estimate, or when larger the largest query of a routine it calls or of a
     * trigger function it fires: PL/pgSQL and SQL routines plan their queries while the statement runs.
     * Routines their queries call or fire are followed too, up to {@link #MAX_CALL_DEPTH} deep; a routine
     * already being followed (recursion) is not followed again. Statements over the lexer's maximum
     * (generated bulk text) are not read for calls.
     */
    CompileEstimate withCalls(String text, StatementAnalysis st, EstimateContext context, CompileEstimate own) {
        if (st.oversized()) {
            return own;
        }
        TokenStream tokens = analyzer.tokens(text.substring(st.span().start(), st.span().end()));
        Largest largest = new Largest(own, st);
        if (runsCalls(st, tokens)) {
            for (RoutineDefinitions.Routine routine : context.catalog().routines().calledIn(tokens)) {
                largest.consider(routine, ", which it calls,", context);
            }
        }
        if (changesRows(st, tokens)) {
            for (RoutineDefinitions.Routine function : context.catalog().triggers().firedBy(tokens)) {
                largest.consider(function, ", a trigger function it fires,", context);
            }
        }
        return largest.estimate();
    }

    /** The largest of a statement's own estimate and those of the routines it runs, as they are considered. */
    private final class Largest {
        private final CompileEstimate own;
        private final StatementAnalysis statement;
        private CompileEstimate largest;
        private String via;

        Largest(CompileEstimate own, StatementAnalysis statement) {
            this.own = own;
            this.statement = statement;
            this.largest = own;
        }

        /** {@code how}: how the statement runs it, for the reason ({@code , which it calls,}). */
        void consider(RoutineDefinitions.Routine routine, String how, EstimateContext context) {
            int depth = context.depthOf(routine);
            if (depth >= 0 || context.following().size() >= MAX_CALL_DEPTH) {
                context.cut().at(depth); // a recursion closing at that depth, or the depth limit (-1)
                return;
            }
            CompileEstimate inner = estimates.routine(routine, context,
                    () -> largestOf(routine.queries(), context.into(routine)));
            if (inner != null && larger(inner, largest)) {
                largest = inner;
                via = routine.schema() + "." + routine.name() + how;
            }
        }

        CompileEstimate estimate() {
            return via == null ? own : largest.plannedWhileRunning(via + " plans while running: ",
                    statement.fingerprint());
        }
    }

    /**
     * Whether running the statement runs the functions it names: not a plain EXPLAIN's (EXPLAIN ANALYZE's does),
     * DDL's, or a cursor's at its DECLARE (they run at FETCH, which plans nothing and passes ungated).
     */
    static boolean runsCalls(StatementAnalysis st, TokenStream tokens) {
        return switch (st.kind()) {
            case EXPLAIN -> explainsAnalyze(tokens);
            case PREPARE, DO, EMPTY, DECLARE_CURSOR -> false;
            case UTILITY -> tokens.isWord(0, "call");
            default -> st.classification().isPlanned();
        };
    }

    /**
     * Whether running the statement may change a table's rows, and so fire its triggers: INSERT, UPDATE,
     * DELETE, MERGE and data-modifying WITH (EXPLAIN ANALYZE's too), COPY FROM and TRUNCATE.
     */
    private static boolean changesRows(StatementAnalysis st, TokenStream tokens) {
        return switch (st.kind()) {
            case UTILITY -> tokens.is(0, Keyword.COPY) || tokens.is(0, Keyword.TRUNCATE);
            default -> runsCalls(st, tokens);
        };
    }

    /** {@code EXPLAIN ANALYZE ...}, {@code EXPLAIN (ANALYZE[ true], ...) ...}: the statement is run. */
    private static boolean explainsAnalyze(TokenStream tokens) {
        if (tokens.is(1, Keyword.ANALYZE) || tokens.is(1, Keyword.ANALYSE)) {
            return true;
        }
        for (int i = 2; tokens.is(0, Keyword.EXPLAIN) && tokens.is(1, TokenKind.LPAREN) && i < tokens.size()
                && !tokens.is(i, TokenKind.RPAREN); i++) {
            if ((tokens.is(i, Keyword.ANALYZE) || tokens.is(i, Keyword.ANALYSE)) && !tokens.is(i + 1, Keyword.FALSE)
                    && !tokens.isWord(i + 1, "off") && !"0".equals(tokenOrEmpty(tokens, i + 1))) {
                return true;
            }
        }
        return false;
    }

    private static String tokenOrEmpty(TokenStream tokens, int i) {
        return i < tokens.size() ? tokens.tokenText(i) : "";
    }

    /**
     * The largest estimate of {@code queries}' statements (any join search beats a bypass); null for none. A
     * SET, RESET or constant set_config among them changes the settings the queries after it are planned under
     * (a body's SET lasts, as a session's does). A body is read as written, not as it runs, and a SET may sit in
     * a branch not taken: so each query after one is estimated under both the settings the body began with and
     * those the SETs before it make, and the larger counts.
     */
    private CompileEstimate largestOf(List<String> queries, EstimateContext context) {
        CompileEstimate largest = null;
        EstimateContext changed = context;
        for (String query : queries) {
            for (StatementAnalysis inner : analyzer.analyze(query).statements()) {
                CompileEstimate e = estimates.statement(query, inner, context, false);
                if (changed != context) {
                    CompileEstimate underChanges = estimates.statement(query, inner, changed, false);
                    e = larger(underChanges, e) ? underChanges : e;
                }
                if (largest == null || larger(e, largest)) {
                    largest = e;
                }
                if (inner.settingChange().isPresent()) {
                    changed = changed.under(applied(inner.settingChange().get(), changed.settings(),
                            context.settings()));
                }
            }
        }
        return largest;
    }

    /** {@code now} after {@code change}; RESET ALL goes back to the settings the body or text began with. */
    static DialectSettings applied(SettingChange change, DialectSettings now, DialectSettings atStart) {
        return switch (change.action()) {
            case SET -> now.with(change.name(), change.value().orElse(""));
            case SET_DEFAULT, RESET -> now.with(change.name(), "default");
            case RESET_ALL -> atStart;
        };
    }

    private static boolean larger(CompileEstimate a, CompileEstimate b) {
        return !a.bypass() && (b.bypass() || a.estimatedBytes() > b.estimatedBytes());
    }

    /** REFRESH MATERIALIZED VIEW plans the view's query, which the catalog holds. */
    CompileEstimate refresh(StatementAnalysis st, EstimateContext context) {
        String qualified = st.classification().name().orElse("");
        int dot = qualified.lastIndexOf('.');
        Optional<ViewDefinitions.View> view = context.catalog().views().materializedView(
                dot < 0 ? Optional.empty() : Optional.of(qualified.substring(0, dot)), qualified.substring(dot + 1));
        if (view.isEmpty()) {
            return bypass(st,
                    "REFRESH of a materialized view whose query is unknown (not in the catalog read)");
        }
        return planned(st, CatalogExpansions.withoutSemicolon(view.get().definition()), context,
                "REFRESH MATERIALIZED VIEW " + qualified + ": ", "REFRESH of a materialized view whose query is empty");
    }
}
