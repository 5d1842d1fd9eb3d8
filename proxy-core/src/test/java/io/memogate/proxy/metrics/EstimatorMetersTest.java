package io.memogate.proxy.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.CompileEstimate;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.mysql.MySqlDialect;
import io.memogate.estimator.mysql.OptimizerSettings;
import io.memogate.estimator.mysql.SyntheticJoins;
import io.memogate.estimator.postgres.PlannerSettings;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The estimator's meters on a Prometheus scrape, after statements an operator could have sent. */
class EstimatorMetersTest {

    private static final String STAR = "SELECT * FROM f JOIN d1 ON f.a = d1.id JOIN d2 ON f.b = d2.id WHERE f.x = 1";
    private static final String UNPARSEABLE = "WITH d AS (DELETE FROM x RETURNING *) SELECT * FROM a, b, c WHERE a.x = b.x";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final CompileEstimator estimator = new CompileEstimator();
    private final EstimatorMeters meters = new EstimatorMeters(estimator);

    @AfterEach
    void close() {
        registry.close();
    }

    @Test
    void cacheHitsMissesAndFallbacks() {
        meters.bindTo(registry);
        estimator.estimate(STAR, PlannerSettings.DEFAULTS);
        estimator.estimate(STAR.replace("f.x = 1", "f.x = 42"), PlannerSettings.DEFAULTS);
        estimator.estimate(UNPARSEABLE, PlannerSettings.DEFAULTS);

        PrometheusText scrape = new PrometheusText(registry.scrape());

        assertThat(scrape.value("memogate_estimator_cache_hits_total")).contains(1.0);
        assertThat(scrape.value("memogate_estimator_cache_misses_total")).contains(2.0);
        assertThat(scrape.value("memogate_estimator_fallback_total")).contains(1.0);
        assertThat(scrape.help("memogate_estimator_fallback_total")).hasValueSatisfying(help -> assertThat(help).contains("Calcite"));
    }

    @Test
    void estimatesRecordedInBytesBucketsSkippingBypasses() {
        EstimateRecorder recorder = meters.recorder();
        CompileEstimate star = estimator.estimate(STAR, PlannerSettings.DEFAULTS);
        recorder.record(star); // before binding: nowhere, and no failure
        meters.bindTo(registry);

        recorder.record(star);
        recorder.record(estimator.estimate("SELECT 1", PlannerSettings.DEFAULTS));

        PrometheusText scrape = new PrometheusText(registry.scrape());
        // A 3-table star is about the fixed cost of join planning: the second bucket, under 256 kB.
        assertThat(star.estimatedBytes()).isBetween(64L * 1024, 256L * 1024);
        assertThat(scrape.value("memogate_estimate_bytes_count{server=\"default\"}")).contains(1.0);
        assertThat(scrape.value("memogate_estimate_bytes_sum{server=\"default\"}")).contains((double) star.estimatedBytes());
        assertThat(scrape.value("memogate_estimate_bytes_bucket{server=\"default\",le=\"65536.0\"}")).contains(0.0);
        assertThat(scrape.value("memogate_estimate_bytes_bucket{server=\"default\",le=\"262144.0\"}")).contains(1.0);
        assertThat(scrape.value("memogate_estimate_bytes_bucket{server=\"default\",le=\"1.6777216E7\"}")).contains(1.0);
        assertThat(scrape.value("memogate_estimate_bytes_bucket{server=\"default\",le=\"+Inf\"}")).contains(1.0);
    }

    /** A MySQL server's estimator counts in the same counters, and its predicted search times are a histogram. */
    @Test
    void aMySqlEstimatorsCountsAndSearchTimes() {
        CompileEstimator mysql = new CompileEstimator(new MySqlDialect());
        meters.add(mysql::statistics);
        meters.bindTo(registry);
        EstimateRecorder recorder = meters.recorder("maria");
        OptimizerSettings noPruning = OptimizerSettings.MARIADB_DEFAULTS.with("optimizer_prune_level", "0");
        estimator.estimate(STAR, PlannerSettings.DEFAULTS);

        CompileEstimate clique = mysql.estimate(SyntheticJoins.clique(10), noPruning);
        recorder.record(clique);
        recorder.record(mysql.estimate(SyntheticJoins.clique(10), OptimizerSettings.MARIADB_DEFAULTS));

        PrometheusText scrape = new PrometheusText(registry.scrape());
        assertThat(scrape.value("memogate_estimator_cache_misses_total")).contains(3.0);
        assertThat(scrape.value("memogate_estimate_search_seconds_count{server=\"maria\"}")).contains(2.0);
        // about 2 s without pruning (measured on MariaDB 10.11), milliseconds with it
        assertThat(clique.searchSeconds()).isBetween(1.0, 10.0);
        assertThat(scrape.value("memogate_estimate_search_seconds_bucket{server=\"maria\",le=\"1.0\"}")).contains(1.0);
        assertThat(scrape.value("memogate_estimate_search_seconds_bucket{server=\"maria\",le=\"10.0\"}")).contains(2.0);
        assertThat(scrape.help("memogate_estimate_search_seconds")).hasValueSatisfying(help -> assertThat(help)
                .contains("MySQL"));
    }
}
