package io.memogate.estimator;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.planner.MemoryModel;
import io.memogate.estimator.postgres.MemoryCoefficients;
import io.memogate.estimator.postgres.PlannerSettings;
import io.memogate.estimator.postgres.PostgresDialect;
import io.memogate.estimator.postgres.PostgresLexicalRules;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The estimator answers a text it has seen from a cache of texts, a text that differs from one it has seen
 * only in constants and comments by its skeleton key, and a statement whose fingerprint it has seen from the
 * fingerprint cache. Whichever answers, it must be what estimating afresh gives, for the session's settings
 * and prepared statements as they are now.
 */
class EstimateCachesTest {

    private static final String STAR = "SELECT * FROM f JOIN d1 ON f.a = d1.id JOIN d2 ON f.b = d2.id"
            + " JOIN d3 ON f.c = d3.id JOIN d4 ON f.d = d4.id JOIN d5 ON f.e = d5.id WHERE d1.x = 1";

    private final CompileEstimator estimator = new CompileEstimator();

    @Test
    void aTextSeenAgainGetsWhatItGotTheFirstTime() {
        CompileEstimate first = estimator.estimate(STAR, PlannerSettings.DEFAULTS);
        CompileEstimate again = estimator.estimate(new String(STAR.toCharArray()), PlannerSettings.DEFAULTS);
        CompileEstimate fresh = new CompileEstimator().estimate(STAR, PlannerSettings.DEFAULTS);

        assertThat(again).isEqualTo(first).isEqualTo(fresh);
        assertThat(estimator.statistics().cacheHits()).isEqualTo(1);
    }

    @Test
    void theSameTextUnderOtherSettingsIsEstimatedForThem() {
        CompileEstimate defaults = estimator.estimate(STAR, PlannerSettings.DEFAULTS);
        PlannerSettings noReordering = PlannerSettings.DEFAULTS.with("join_collapse_limit", "1");
        CompileEstimate written = estimator.estimate(STAR, noReordering);

        assertThat(written.memoPairs()).isLessThan(defaults.memoPairs())
                .isEqualTo(new CompileEstimator().estimate(STAR, noReordering).memoPairs());
        assertThat(estimator.estimate(STAR, PlannerSettings.DEFAULTS)).isEqualTo(defaults);
    }

    /** What EXECUTE runs is whatever the session prepared under that name last, whatever the text repeats. */
    @Test
    void executeFollowsThePreparedStatementEvenWhenItsTextRepeats() {
        PreparedStatementTexts three = prepared("PREPARE p AS SELECT * FROM a, b, c WHERE a.x = b.x AND b.y = c.y");
        PreparedStatementTexts star = prepared("PREPARE p AS " + STAR);

        for (String text : new String[] {"EXECUTE p", "SELECT 1; EXECUTE p"}) {
            long small = estimator.estimate(text, PlannerSettings.DEFAULTS, three).memoPairs();
            long large = estimator.estimate(text, PlannerSettings.DEFAULTS, star).memoPairs();
            assertThat(small).as(text).isEqualTo(4);
            assertThat(large).as(text).isEqualTo(new CompileEstimator().estimate(STAR, PlannerSettings.DEFAULTS).memoPairs())
                    .isGreaterThan(small);
            assertThat(estimator.estimate(text, PlannerSettings.DEFAULTS, PreparedStatementTexts.NONE).bypass()).as(text)
                    .isTrue();
        }
    }

    @Test
    void statementsDifferingOnlyInConstantsShareAnEstimate() {
        CompileEstimate first = estimator.estimate(STAR, PlannerSettings.DEFAULTS);
        CompileEstimate other = estimator.estimate(STAR.replace("= 1", "= 'x' /* another literal */"),
                PlannerSettings.DEFAULTS);

        assertThat(other).isEqualTo(first);
        assertThat(estimator.statistics().cacheHits()).isEqualTo(1);
    }

    /**
     * An application that writes its constants into the text sends a new text each time: the fingerprint
     * cache answers it, and the cache of texts does not fill up with texts it will not see again. A prepared
     * statement's text, with parameters, is sent verbatim at every Bind and is kept, even when its statement
     * was first estimated from a text with constants.
     */
    @Test
    void theCacheOfTextsKeepsTextsThatRepeat() {
        for (int i = 0; i < 100; i++) {
            estimator.estimate(STAR.replace("= 1", "= " + i), PlannerSettings.DEFAULTS);
        }
        assertThat(estimator.cachedTexts()).isEqualTo(1);
        assertThat(estimator.statistics()).isEqualTo(new EstimatorStatistics(99, 1, 0));

        estimator.estimate(STAR.replace("= 1", "= $1"), PlannerSettings.DEFAULTS);
        assertThat(estimator.cachedTexts()).isEqualTo(2);
        // A string literal where $1 was: the skeleton key of the $1 text answers, nothing more is kept...
        estimator.estimate(STAR.replace("= 1", "= 'a'"), PlannerSettings.DEFAULTS);
        estimator.estimate(STAR.replace("= 1", "= 'b'"), PlannerSettings.DEFAULTS);
        assertThat(estimator.cachedTexts()).isEqualTo(2);
        // ...but another prepared statement's text answered by that key is kept for its Binds.
        estimator.estimate(STAR.replace("= 1", "= $2"), PlannerSettings.DEFAULTS);
        assertThat(estimator.cachedTexts()).isEqualTo(3);
    }

    /** Written in another case or spacing, a known statement is still a hit: on its fingerprint. */
    @Test
    void aKnownStatementWrittenDifferentlyIsAnsweredByItsFingerprint() {
        CompileEstimate first = estimator.estimate(STAR, PlannerSettings.DEFAULTS);
        CompileEstimate lower = estimator.estimate(STAR.toLowerCase(java.util.Locale.ROOT).replace(" join ", "\n  join "),
                PlannerSettings.DEFAULTS);

        assertThat(lower).isEqualTo(first);
        assertThat(estimator.statistics()).isEqualTo(new EstimatorStatistics(1, 1, 0));
    }

    /** Generated bulk text over the lexer's maximum is not kept whole; its estimate is still cached. */
    @Test
    void aTextOverTheLexersMaximumIsNotKeptWhole() {
        CompileEstimator small = new CompileEstimator(
                new PostgresDialect(PostgresLexicalRules.analyzer(STAR.length() - 1), new MemoryModel(MemoryCoefficients.DEFAULTS)),
                CompileEstimator.DEFAULT_CACHE_SIZE, CompileEstimator.DEFAULT_MAX_PARSE_DEPTH);
        CompileEstimate first = small.estimate(STAR, PlannerSettings.DEFAULTS);

        assertThat(first.reason()).contains("over the lexer's maximum");
        assertThat(small.estimate(STAR, PlannerSettings.DEFAULTS)).isEqualTo(first);
        assertThat(small.cachedTexts()).isZero();
        assertThat(small.statistics()).isEqualTo(new EstimatorStatistics(1, 1, 1));
    }

    private static PreparedStatementTexts prepared(String text) {
        Map<String, String> texts = Map.of("p", text);
        return name -> Optional.ofNullable(texts.get(name));
    }
}
