package io.memogate.estimator;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.postgres.PlannerSettings;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A text of several statements runs them in turn, so a SET, RESET or set_config among them changes how the
 * server plans the statements after it (SET LOCAL too: a text of several statements is one implicit
 * transaction). "SET join_collapse_limit = 20; SELECT ..." sent as one Query must be estimated as the server will
 * plan it, not under the settings the session had before; else a client that widens the search in the same
 * text as its big join gets past the gateways.
 */
class SettingsInTextEstimateTest {

    /** Eleven tables joined explicitly (under geqo_threshold): join_collapse_limit 8 cuts the search, 20 does not. */
    private static final String STAR = "SELECT * FROM f" + IntStream.rangeClosed(1, 10)
            .mapToObj(i -> " JOIN d" + i + " ON f.k" + i + " = d" + i + ".id").collect(Collectors.joining());
    private static final PlannerSettings WIDE = PlannerSettings.DEFAULTS.with("join_collapse_limit", "20");

    private final CompileEstimator estimator = new CompileEstimator();

    @Test
    void aSetBeforeAStatementInTheSameTextIsPlannedUnder() {
        long alone = fresh(STAR, PlannerSettings.DEFAULTS).memoPairs();
        long wide = fresh(STAR, WIDE).memoPairs();
        assertThat(wide).as("the setting matters for this query").isGreaterThan(alone);

        for (String text : List.of("SET join_collapse_limit = 20; " + STAR,
                "set join_collapse_limit to 20; select 1; " + STAR,
                "BEGIN; SET LOCAL join_collapse_limit = 20; " + STAR + "; COMMIT",
                "SELECT set_config('join_collapse_limit', '20', false); " + STAR)) {
            assertThat(estimator.estimate(text, PlannerSettings.DEFAULTS).memoPairs()).as(text).isEqualTo(wide);
        }
    }

    @Test
    void aSetAfterTheStatementOrResetBeforeItLeavesItsSettings() {
        long alone = fresh(STAR, PlannerSettings.DEFAULTS).memoPairs();

        assertThat(estimator.estimate(STAR + "; SET join_collapse_limit = 20", PlannerSettings.DEFAULTS).memoPairs())
                .isEqualTo(alone);
        assertThat(estimator.estimate("SET join_collapse_limit = 20; RESET join_collapse_limit; " + STAR,
                PlannerSettings.DEFAULTS).memoPairs()).isEqualTo(alone);
        assertThat(estimator.estimate("RESET ALL; " + STAR, WIDE).memoPairs())
                .as("RESET ALL: back to the settings the text began with, the most this estimator knows")
                .isEqualTo(fresh(STAR, WIDE).memoPairs());
    }

    /** Texts that differ only in a SET's value share a skeleton: each must still get its own estimate. */
    @Test
    void textsThatDifferOnlyInTheSetsValueAreNotAnsweredFromEachOthersCache() {
        String narrow = "SET join_collapse_limit = 1; " + STAR;
        String wide = "SET join_collapse_limit = 20; " + STAR;

        long first = estimator.estimate(narrow, PlannerSettings.DEFAULTS).memoPairs();
        long second = estimator.estimate(wide, PlannerSettings.DEFAULTS).memoPairs();
        long again = estimator.estimate(narrow, PlannerSettings.DEFAULTS).memoPairs();

        assertThat(first).isEqualTo(again).isEqualTo(fresh(STAR, PlannerSettings.DEFAULTS.with("join_collapse_limit",
                "1")).memoPairs());
        assertThat(second).isEqualTo(fresh(STAR, WIDE).memoPairs()).isGreaterThan(first);
        assertThat(estimator.estimate(STAR, PlannerSettings.DEFAULTS).memoPairs())
                .isEqualTo(fresh(STAR, PlannerSettings.DEFAULTS).memoPairs());
    }

    private static CompileEstimate fresh(String sql, PlannerSettings settings) {
        return new CompileEstimator().estimate(sql, settings);
    }
}
