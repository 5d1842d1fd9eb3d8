package io.memogate.estimator;

import io.memogate.estimator.calcite.CatalogQueries;
import io.memogate.estimator.calcite.LexicalFallback;
import io.memogate.estimator.dialect.Dialect;
import io.memogate.estimator.dialect.Rewriter;
import io.memogate.estimator.lexer.LexicalAnalyzer;
import io.memogate.estimator.lexer.Literals;
import io.memogate.estimator.lexer.RelationBound;
import io.memogate.estimator.lexer.TokenKind;
import io.memogate.estimator.lexer.TokenStream;
import io.memogate.estimator.planner.PartitionedTables;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The views and inlinable functions of a {@link Catalog} as one statement's query blocks see them: each
 * definition parsed as a statement is (rewritten where the dialect's parser needs it, parsed by Calcite, read
 * off its tokens when Calcite cannot), once per statement however often it is named. One per statement: not
 * thread-safe.
 */
final class CatalogExpansions implements CatalogQueries {

    private final Catalog catalog;
    private final Dialect<?> dialect;
    private final LexicalFallback fallback;
    private final int maxParseDepth;
    /** Per view or function (records: equal when they are the same definition), its body as read. */
    private final Map<Object, Optional<QueryBody>> read = new HashMap<>();

    CatalogExpansions(Catalog catalog, Dialect<?> dialect, LexicalFallback fallback, int maxParseDepth) {
        this.catalog = catalog;
        this.dialect = dialect;
        this.fallback = fallback;
        this.maxParseDepth = maxParseDepth;
    }

    /**
     * Partitions from which a partitioned table is worth a look even when it is the one relation a statement
     * names: PostgreSQL plans a child relation per partition, about 4 kB each, so a scan of 128 partitions costs
     * half a megabyte.
     */
    static final int MANY_PARTITIONS = 128;

    /**
     * The same with grouping planned partition by partition: a grouping relation per partition costs 4-8 kB more
     * (PostgreSQL 18.6: a table of 64 partitions grouped planned in 0.44-0.81 MB with it, 0.24-0.34 MB without).
     */
    static final int MANY_PARTITIONS_GROUPED = 32;

    /**
     * Whether {@code statement} names a view or an inlinable function of {@code catalog}, or a table of
     * {@value #MANY_PARTITIONS} partitions or more: then its text does not show all the relations it plans, and
     * naming one relation is no reason to let it bypass; from {@value #MANY_PARTITIONS_GROUPED} partitions when
     * {@code groupedPartitionwise}.
     */
    static boolean named(String statement, Catalog catalog, LexicalAnalyzer analyzer, boolean groupedPartitionwise) {
        int manyPartitions = groupedPartitionwise ? MANY_PARTITIONS_GROUPED : MANY_PARTITIONS;
        ViewDefinitions views = catalog.views();
        FunctionDefinitions functions = catalog.functions();
        PartitionedTables partitioned = catalog.partitions();
        if (views.isEmpty() && functions.isEmpty() && partitioned.isEmpty()) {
            return false;
        }
        TokenStream tokens = analyzer.tokens(statement);
        for (int i = 0; i < tokens.size(); i++) {
            Optional<String> name = Literals.identifier(tokens, i); // as the server stores it
            if (name.isPresent() && (views.contains(name.get())
                    || tokens.is(i + 1, TokenKind.LPAREN) && functions.containsName(name.get())
                    || partitioned.of(name.get()).filter(p -> p.partitions() >= manyPartitions).isPresent())) {
                return true;
            }
        }
        return false;
    }

    @Override
    public Optional<QueryBody> view(Optional<String> schema, String name) {
        return catalog.views().view(schema, name)
                .flatMap(view -> read.computeIfAbsent(view,
                        k -> Optional.of(body(view.definition(), view.securityBarrier()))));
    }

    /** PostgreSQL inlines a function whose body is one SELECT; a body of several statements stays a scan. */
    @Override
    public Optional<QueryBody> function(String name, int arguments) {
        return catalog.functions().function(name, arguments)
                .flatMap(function -> read.computeIfAbsent(function,
                        k -> dialect.analyzer().analyze(function.body()).statements().size() == 1
                                ? Optional.of(body(function.body(), false)) : Optional.empty()));
    }

    private QueryBody body(String definition, boolean securityBarrier) {
        String query = withoutSemicolon(definition);
        TokenStream tokens = dialect.analyzer().tokens(query);
        if (RelationBound.of(tokens).maxNestingDepth() <= maxParseDepth) {
            try {
                Rewriter.Rewrite rewrite = dialect.rewriter().rewrite(query);
                return new Parsed(dialect.parse(rewrite.text()), rewrite.materialized(), rewrite.notMaterialized(),
                        securityBarrier, tokens.size());
            } catch (Exception | StackOverflowError e) {
                // read off its tokens below
            }
        }
        return new Unparsed(fallback.estimate(tokens), tokens.size());
    }

    /** A definition as {@code pg_get_viewdef} prints it (or a function body), without a closing semicolon. */
    static String withoutSemicolon(String definition) {
        String query = definition.strip();
        return query.endsWith(";") ? query.substring(0, query.length() - 1).strip() : query;
    }

}
