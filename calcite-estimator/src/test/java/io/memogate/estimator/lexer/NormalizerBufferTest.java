package io.memogate.estimator.lexer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The normalizer writes into a buffer the token stream keeps between statements. The normalized text can be
 * longer than the statement (spaces between tokens, a collapsed VALUES row), and a reused stream may hold
 * a smaller buffer from a shorter text: neither may cut or mix fingerprints.
 */
class NormalizerBufferTest {

    private final LexicalAnalyzer analyzer = PostgresLexing.analyzer();

    @Test
    void normalizedTextLongerThanTheStatement() {
        String sql = "a=b+c*d/e<f,g(h)values(1,2)";
        Fingerprint f = PostgresLexing.fingerprint(sql);
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

    /**
     * A stream an event loop keeps for its life holds the buffers of ordinary statements only: after a text
     * larger than {@link TokenStream#MAX_KEPT_CHARS} its buffers go with that text, and the fingerprints of
     * the texts before and after are the same as from a fresh stream.
     */
    @Test
    void aReusedStreamKeepsNoBufferOfAnOversizedText() {
        TokenStream scratch = new TokenStream();
        String small = "select * from a, b where a.x = b.y and a.z in (1, 2, 3)";
        String large = "select * from a, b where a.x = b.y" + " and a.z = 1".repeat(TokenStream.MAX_KEPT_CHARS / 10);
        char[] kept = scratch.charsOf(small);

        assertThat(scratch.charsOf(small)).isSameAs(kept);
        assertThat(scratch.charsOf(large)).isNotSameAs(scratch.charsOf(large)).hasSize(large.length());
        assertThat(scratch.normalizedBuffer(large.length())).isNotSameAs(scratch.normalizedBuffer(large.length()));
        assertThat(scratch.charsOf(small)).isSameAs(kept);

        long smallHash = analyzer.analyze(small).statements().get(0).fingerprint().hash();
        long largeHash = analyzer.analyze(large).statements().get(0).fingerprint().hash();
        assertThat(analyzer.analyze(small, scratch).statements().get(0).fingerprint().hash()).isEqualTo(smallHash);
        assertThat(analyzer.analyze(large, scratch).statements().get(0).fingerprint().hash()).isEqualTo(largeHash);
        assertThat(analyzer.analyze(small, scratch).statements().get(0).fingerprint().hash()).isEqualTo(smallHash);
        assertThat(scratch.normalizedBuffer(small.length()).length).isLessThanOrEqualTo(TokenStream.MAX_KEPT_CHARS);
    }

    /**
     * A stream that once held a text just under {@link TokenStream#MAX_KEPT_CHARS} keeps a text buffer that
     * long; the statements after it still normalize into the kept buffer rather than a new one each time.
     */
    @Test
    void aLongReusedTextBufferDoesNotMakeEveryStatementAllocateAnother() {
        TokenStream scratch = new TokenStream();
        String small = "select * from a, b where a.x = b.y and a.z in (1, 2, 3)";
        analyzer.analyze("select 1" + " ".repeat(TokenStream.MAX_KEPT_CHARS - 10), scratch);
        analyzer.analyze(small, scratch);

        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 100; i++) {
            analyzer.analyze(small, scratch);
        }
        // A buffer sized for the long text would be 128 kB a statement, 12.8 MB for the hundred.
        assertThat(threads.getCurrentThreadAllocatedBytes() - before).isLessThan(2_000_000);
    }
}
