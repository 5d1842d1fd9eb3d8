package io.memogate.estimator.lexer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The normalizer writes into a buffer the token stream keeps between statements. The normalized text can be
 * longer than the statement (spaces between tokens, a collapsed VALUES row), and a reused stream may hold
 * a smaller buffer from a shorter text: neither may cut or mix fingerprints.
 */
class NormalizerBufferTest {

    private final LexicalAnalyzer analyzer = new LexicalAnalyzer();

    @Test
    void normalizedTextLongerThanTheStatement() {
        String sql = "a=b+c*d/e<f,g(h)values(1,2)";
        Fingerprint f = Fingerprint.of(sql);
        assertThat(f.text()).isEqualTo("a = b + c * d / e < f, g (h) values (?, ?), ...").hasSizeGreaterThan(sql.length());
        assertThat(f.hash()).isEqualTo(Fingerprint.hashOf(f.text()));
    }

    @Test
    void aReusedStreamGivesWhatAFreshOneGives() {
        TokenStream scratch = new TokenStream(4);
        StringBuilder longer = new StringBuilder("select x from t where x in (1)");
        for (String sql : new String[] {"select 1", "x=y", longer.append(" and y=z+1".repeat(50)).toString(),
                "a=b;c=d;values(1,2,3)", "select 2"}) {
            LexicalAnalysis reused = analyzer.analyze(sql, scratch);
            LexicalAnalysis fresh = analyzer.analyze(sql);
            assertThat(reused.statements()).hasSameSizeAs(fresh.statements());
            for (int k = 0; k < fresh.statements().size(); k++) {
                Fingerprint f = fresh.statements().get(k).fingerprint();
                assertThat(reused.statements().get(k).fingerprint().hash()).as(sql).isEqualTo(f.hash())
                        .isEqualTo(Fingerprint.hashOf(f.text()));
            }
        }
    }
}
