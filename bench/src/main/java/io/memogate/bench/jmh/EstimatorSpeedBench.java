package io.memogate.bench.jmh;

import io.memogate.estimator.CompileEstimate;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.lexer.LexicalAnalysis;
import io.memogate.estimator.lexer.LexicalAnalyzer;
import io.memogate.estimator.lexer.StatementSpan;
import io.memogate.estimator.lexer.StatementSplitter;
import io.memogate.estimator.lexer.TokenStream;
import io.memogate.estimator.postgres.PlannerSettings;
import io.memogate.estimator.postgres.PostgresLexicalRules;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The estimator's speed targets, each as JMH's SampleTime so that it prints percentiles and the
 * p50 can be read against the target:
 * <ul>
 *   <li>{@link #cachedHit}: the cached path, lexer + fingerprint + Caffeine hit, for q17 of tpcds-like.sql
 *   (1,184 characters, 8 relations), p50 &lt;= 2 us. Every call puts a new number in one of its string
 *   literals, so the text is new (the cache of texts misses) and its statement is not, as when an
 *   application sends one query with other constants: the skeleton key ({@code TextSkeleton}) answers it.
 *   The call includes making that String (a copy of 1.2 kB, tens of ns);</li>
 *   <li>{@link #fingerprintHit}: q17 with new whitespace each call (a counter written in spaces and tabs):
 *   a new text and a new skeleton key, a known fingerprint, so the fingerprint pass answers it;</li>
 *   <li>{@link #sameTextHit}: q17 again, as a new String with the same characters each call (as the proxy
 *   decodes every message it relays): the cache of texts answers it;</li>
 *   <li>{@link #lexer}: the lexer's public facade {@link LexicalAnalyzer#analyze(String)} (split, classify,
 *   fingerprint, bound the relations, read a setting change) on q64 (2,276 characters), &lt;= 10 us;
 *   {@link #lexerReusingTokens} is the same with a per-thread token stream;</li>
 *   <li>{@link #uncached}: a full estimate of each tpcds-like.sql statement, p50 &lt;= 1 ms. Every call
 *   replaces {@code {n}} in an output alias with a new number: an identifier stays in the fingerprint (a
 *   literal would not), so each call misses the cache and parses, as a statement seen for the first time
 *   does. The cache fills to its bound and then evicts, as in a long-running proxy;</li>
 *   <li>{@link #clique60}: 60 tables, each pair joined on its own columns, with geqo off so dynamic
 *   programming's count runs into its budget: the answer must come back quickly, capped and extrapolated.</li>
 * </ul>
 * Run: {@code bin/memogate bench jmh EstimatorSpeedBench -f 1 -wi 3 -i 5}; bench/RESULTS.md has figures.
 * Each benchmark's setup checks that it measures what it claims (a cache hit, a capped count, ...).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class EstimatorSpeedBench {

    static final String RESOURCE = "/io/memogate/bench/jmh/tpcds-like.sql";
    /** The statements of the resource, in its order. */
    static final List<String> NAMES = List.of("q17", "q72", "q64", "q10", "q5");
    static final String VARIABLE = "{n}";
    static final int CLIQUE = 60;
    /** q17's own literal that {@link #cachedHit} changes: {@code '2001Q1'} becomes {@code '2001Q1<n>'}. */
    static final String LITERAL = "'2001Q1";

    private final LexicalAnalyzer analyzer = PostgresLexicalRules.analyzer();
    private final TokenStream scratch = new TokenStream();
    private final PlannerSettings geqoOff = PlannerSettings.DEFAULTS.with("geqo", "off");
    private CompileEstimator estimator;
    private String cached;
    /** q17 up to and after the point where {@link #cachedHit} writes its number. */
    private String cachedHead;
    private String cachedTail;
    private long calls;
    private char[] cachedChars;
    private String lexed;
    private String clique;

    @Setup
    public void setUp() {
        List<String> statements = statements();
        cached = fixed(statements.get(NAMES.indexOf("q17")));
        lexed = fixed(statements.get(NAMES.indexOf("q64")));
        clique = clique(CLIQUE);
        int cut = cached.indexOf(LITERAL);
        if (cut < 0) {
            throw new IllegalStateException("q17 has no literal " + LITERAL + "'");
        }
        cachedHead = cached.substring(0, cut + LITERAL.length());
        cachedTail = cached.substring(cut + LITERAL.length());
        cachedChars = cached.toCharArray();
        estimator = new CompileEstimator();
        estimator.estimate(cached, PlannerSettings.DEFAULTS);
        estimator.estimate(withNewLiteral(), PlannerSettings.DEFAULTS);
        if (estimator.statistics().cacheHits() != 1) {
            throw new IllegalStateException("q17 with another literal was not a cache hit: " + estimator.statistics());
        }
        CompileEstimate capped = new CompileEstimator().estimate(clique, geqoOff);
        if (!capped.capped()) {
            throw new IllegalStateException("the 60-table clique was counted exactly: " + capped.reason());
        }
    }

    @Benchmark
    public CompileEstimate cachedHit() {
        return estimator.estimate(withNewLiteral(), PlannerSettings.DEFAULTS);
    }

    @Benchmark
    public CompileEstimate sameTextHit() {
        return estimator.estimate(new String(cachedChars), PlannerSettings.DEFAULTS);
    }

    @Benchmark
    public CompileEstimate fingerprintHit() {
        return estimator.estimate(withNewSpacing(), PlannerSettings.DEFAULTS);
    }

    /** q17 with whitespace no call has used yet after its first word: the call number in spaces and tabs. */
    String withNewSpacing() {
        long n = calls++;
        StringBuilder spacing = new StringBuilder(cached.length() + 64);
        int cut = cached.indexOf(' ');
        spacing.append(cached, 0, cut);
        for (int bit = 0; bit < 40; bit++) {
            spacing.append((n >>> bit & 1) == 0 ? ' ' : '\t');
        }
        return spacing.append(cached, cut, cached.length()).toString();
    }

    /** q17 with a number no call has used yet in its literal. */
    String withNewLiteral() {
        return cachedHead + calls++ + cachedTail;
    }

    @Benchmark
    public LexicalAnalysis lexer() {
        return analyzer.analyze(lexed);
    }

    @Benchmark
    public LexicalAnalysis lexerReusingTokens() {
        return analyzer.analyze(lexed, scratch);
    }

    /** One statement of tpcds-like.sql, its own estimator, and the number for the next call's alias. */
    @State(Scope.Thread)
    public static class Uncached {
        @Param({"q17", "q72", "q64", "q10", "q5"})
        public String query;

        final CompileEstimator estimator = new CompileEstimator();
        String template;
        /** From 1: the setup's estimate used 0. */
        long calls = 1;

        @Setup
        public void setUp() {
            template = statements().get(NAMES.indexOf(query));
            CompileEstimate first = estimator.estimate(fixed(template), PlannerSettings.DEFAULTS);
            if (first.bypass()) {
                throw new IllegalStateException(query + " bypassed the estimator: " + first.reason());
            }
        }

        String next() {
            return template.replace(VARIABLE, Long.toString(calls++));
        }
    }

    @Benchmark
    public CompileEstimate uncached(Uncached state) {
        return state.estimator.estimate(state.next(), PlannerSettings.DEFAULTS);
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public CompileEstimate clique60() {
        // A new estimator each time: the same text would otherwise be a cache hit.
        return new CompileEstimator().estimate(clique, geqoOff);
    }

    /** The statements of tpcds-like.sql, split by the estimator's own splitter; checked against NAMES. */
    static List<String> statements() {
        String text;
        try (InputStream in = EstimatorSpeedBench.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + RESOURCE + " is missing");
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
        List<String> statements = new ArrayList<>();
        for (StatementSpan span : StatementSplitter.split(text, PostgresLexicalRules.RULES).statements()) {
            String sql = span.of(text);
            if (!sql.contains(VARIABLE)) {
                throw new IllegalStateException("statement " + (statements.size() + 1) + " of " + RESOURCE
                        + " has no " + VARIABLE);
            }
            statements.add(sql);
        }
        if (statements.size() != NAMES.size()) {
            throw new IllegalStateException(RESOURCE + " holds " + statements.size() + " statements, expected "
                    + NAMES.size() + " (" + NAMES + ")");
        }
        return statements;
    }

    /** The statement as one fixed text. */
    static String fixed(String template) {
        return template.replace(VARIABLE, "0");
    }

    /** {@code SELECT * FROM t0, ..., t(n-1) WHERE ti.cj = tj.ci AND ...} for every pair: a column per pair. */
    static String clique(int n) {
        StringBuilder sql = new StringBuilder("SELECT * FROM ");
        for (int i = 0; i < n; i++) {
            sql.append(i == 0 ? "" : ", ").append('t').append(i);
        }
        String glue = " WHERE ";
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                sql.append(glue).append('t').append(i).append(".c").append(j).append(" = t").append(j).append(".c")
                        .append(i);
                glue = " AND ";
            }
        }
        return sql.toString();
    }
}
