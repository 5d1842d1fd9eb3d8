package io.memogate.estimator.lexer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The estimator answers a cache hit from {@link LexicalAnalyzer#keys} alone and fills the cache from
 * {@link LexicalAnalyzer#analyze}: if the two ever disagreed on a statement's key, every execution of it would
 * miss, or worse, find another statement's estimate. They must give the same keys for every text.
 */
class StatementKeysTest {

    private final LexicalAnalyzer analyzer = PostgresLexing.analyzer();

    @Test
    void keysAreTheAnalysisFingerprintsOfRandomTexts() {
        RandomStatements texts = new RandomStatements(20261122L);
        TokenStream scratch = new TokenStream();
        for (int i = 0; i < 3_000; i++) {
            String text = texts.next();
            assertSameKeys(analyzer, text, scratch);
        }
    }

    @Test
    void keysOfSeveralStatementsOversizedOnesAndEmptyTexts() {
        LexicalAnalyzer small = PostgresLexing.analyzer(40);
        TokenStream scratch = new TokenStream(4);
        for (String text : List.of("", " -- nothing\n", ";;", "select 1; select * from a, b where a.x in (1, 2, -3);",
                "select * from a, b where a.x = b.y and b.z = 'a long literal that crosses the limit';"
                        + " values (1, 2), (3, 4); select 2",
                "/* unterminated", "select 'open")) {
            assertSameKeys(analyzer, text, scratch);
            assertSameKeys(small, text, scratch);
        }
    }

    @Test
    void executeAnywhereInTheTextIsReported() {
        TokenStream scratch = new TokenStream();
        assertThat(analyzer.keys("EXECUTE p(1)", scratch).needsText()).isTrue();
        assertThat(analyzer.keys("select 1; execute p; select 2", scratch).needsText()).isTrue();
        assertThat(analyzer.keys("select 1; select 2", scratch).needsText()).isFalse();
        assertThat(analyzer.keys("select execute from t", scratch).needsText()).isFalse();
        assertThat(analyzer.keys("prepare p as select 1", scratch).needsText()).isFalse();
    }

    @Test
    void parametersAnywhereInTheTextAreReported() {
        TokenStream scratch = new TokenStream();
        assertThat(analyzer.keys("select * from a, b where a.x = $1", scratch).parameters()).isTrue();
        assertThat(analyzer.keys("select 1; select * from t where id = ?", scratch).parameters()).isTrue();
        assertThat(analyzer.keys("select * from a, b where a.x = 1 and b.y = '$1'", scratch).parameters()).isFalse();
    }

    private static void assertSameKeys(LexicalAnalyzer analyzer, String text, TokenStream scratch) {
        List<StatementAnalysis> statements = analyzer.analyze(text).statements();
        StatementKeys keys = analyzer.keys(text, scratch);
        assertThat(keys.size()).as(text).isEqualTo(statements.size());
        for (int k = 0; k < statements.size(); k++) {
            Fingerprint f = statements.get(k).fingerprint();
            assertThat(keys.hash(k)).as("statement %d of %s", k, text).isEqualTo(f.hash());
            assertThat(keys.oversized(k)).as("statement %d of %s", k, text).isEqualTo(f.oversized());
        }
    }
}
