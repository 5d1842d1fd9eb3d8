package io.memogate.estimator;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.CompileEstimate.Parser;
import io.memogate.estimator.postgres.PlannerSettings;

/**
 * {@code sql("...").settings("join_collapse_limit", "20").estimates(pairs)}: one statement through the
 * whole estimator, asserting what a gateway would see. Every assertion prints the estimate on failure.
 */
final class Fixture {

    /** Shared like the proxy shares it: the cache must not change answers. */
    private static final CompileEstimator ESTIMATOR = new CompileEstimator();

    private final String sql;
    private PlannerSettings settings = PlannerSettings.DEFAULTS;

    private Fixture(String sql) {
        this.sql = sql;
    }

    static Fixture sql(String sql) {
        return new Fixture(sql);
    }

    Fixture settings(String name, String value) {
        settings = settings.with(name, value);
        return this;
    }

    /** Wide settings of the accuracy report: both collapse limits and geqo_threshold at 20. */
    Fixture wide() {
        return settings("join_collapse_limit", "20").settings("from_collapse_limit", "20")
                .settings("geqo_threshold", "20");
    }

    CompileEstimate estimate() {
        return ESTIMATOR.estimate(sql, settings);
    }

    /** Planned, read by Calcite, with exactly {@code memoPairs} join relations in total. */
    CompileEstimate estimates(long memoPairs) {
        CompileEstimate e = estimate();
        assertThat(e).as(sql).extracting(CompileEstimate::bypass, CompileEstimate::parser)
                .containsExactly(false, Parser.CALCITE);
        assertThat(e.memoPairs()).as("%s%n%s", sql, e).isEqualTo(memoPairs);
        assertThat(e.estimatedBytes()).as("%s", e).isPositive();
        return e;
    }

    CompileEstimate bypasses() {
        CompileEstimate e = estimate();
        assertThat(e.bypass()).as("%s%n%s", sql, e).isTrue();
        assertThat(e.parser()).isEqualTo(Parser.NONE);
        assertThat(e.memoPairs()).isZero();
        return e;
    }

    CompileEstimate fallsBack() {
        CompileEstimate e = estimate();
        assertThat(e.parser()).as("%s%n%s", sql, e).isEqualTo(Parser.LEXICAL);
        assertThat(e.bypass()).isFalse();
        assertThat(e.reason()).isNotBlank();
        return e;
    }
}
