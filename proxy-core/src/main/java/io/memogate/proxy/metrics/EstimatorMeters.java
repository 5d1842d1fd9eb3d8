package io.memogate.proxy.metrics;

import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.EstimatorStatistics;
import io.memogate.proxy.admission.AdmissionControl;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * The estimator's meters: cache hits and misses and lexical fallbacks, read from
 * {@link CompileEstimator#statistics()} at scrape time (the estimator library knows nothing of
 * Micrometer), summed over every estimator in use (PostgreSQL's, and each MySQL server's, added with
 * {@link #add}); and the distributions of estimates and of predicted join-search times, which the admission
 * code records through {@link #recorder()} since only it knows which estimates were admitted on.
 */
public final class EstimatorMeters implements MeterBinder {

    private static final long KIB = 1024;
    private static final long MIB = 1024 * KIB;
    private static final long GIB = 1024 * MIB;

    /**
     * Powers of 4 from 64 KiB, about the fixed cost of any join planning, to 16 GiB, beyond which a
     * server is lost anyway; docs/DESIGN.md measured 26 MB for a 12-table star and 5.3 GB for a
     * 14-table clique. Ten buckets keep the histogram cheap to scrape.
     */
    private static final double[] ESTIMATE_BUCKETS = {64 * KIB, 256 * KIB, MIB, 4 * MIB, 16 * MIB, 64 * MIB,
            256 * MIB, GIB, 4 * GIB, 16 * GIB};

    /**
     * Decades from 1 ms, a search nobody notices, to 1,000 s: MariaDB planned an 11-table clique without pruning
     * for 39 s (bench/log/mysql-optimizer.md); the admission.search defaults, 0.1, 1 and 10 s, are bucket bounds.
     */
    private static final double[] SEARCH_BUCKETS = {0.001, 0.01, 0.1, 1, 10, 100, 1000};

    private final List<Supplier<EstimatorStatistics>> sources = new CopyOnWriteArrayList<>();
    private final Supplier<EstimatorStatistics> statistics = this::sum;
    /** The registries bound to (usually one, the composite): a server's recorder feeds each. */
    private final List<MeterRegistry> registries = new ArrayList<>();
    /** Per server, its estimate summary in each registry bound to. */
    private final Map<String, List<DistributionSummary>> estimates = new HashMap<>();
    /** Per server, its search-time summary in each registry bound to. */
    private final Map<String, List<DistributionSummary>> searches = new HashMap<>();

    public EstimatorMeters(CompileEstimator estimator) {
        this(Objects.requireNonNull(estimator, "estimator")::statistics);
    }

    /** @param statistics the counts, read at scrape time (e.g. of every estimator a reload put in force) */
    public EstimatorMeters(Supplier<EstimatorStatistics> statistics) {
        add(statistics);
    }

    /**
     * Counts the statistics of another estimator too (a MySQL server's, when its admission starts); they are
     * summed, so the counters stay monotonic.
     */
    public void add(Supplier<EstimatorStatistics> more) {
        sources.add(Objects.requireNonNull(more, "more"));
    }

    private EstimatorStatistics sum() {
        EstimatorStatistics total = new EstimatorStatistics(0, 0, 0);
        for (Supplier<EstimatorStatistics> source : sources) {
            total = total.plus(source.get());
        }
        return total;
    }

    @Override
    public synchronized void bindTo(MeterRegistry registry) {
        FunctionCounter.builder(Names.ESTIMATOR_CACHE_HITS, statistics, s -> s.get().cacheHits())
                .description("Statements whose compile-memory estimate came from the estimator's cache")
                .register(registry);
        FunctionCounter.builder(Names.ESTIMATOR_CACHE_MISSES, statistics, s -> s.get().cacheMisses())
                .description("Statements the estimator had to estimate (not in its cache)")
                .register(registry);
        FunctionCounter.builder(Names.ESTIMATOR_FALLBACK, statistics, s -> s.get().lexicalFallbacks())
                .description("Estimates computed from the token stream because Calcite could not read the statement")
                .register(registry);
        registries.add(registry);
        estimates.forEach((server, summaries) -> summaries.add(estimates(registry, server)));
        searches.forEach((server, summaries) -> summaries.add(searches(registry, server)));
    }

    private static DistributionSummary searches(MeterRegistry registry, String server) {
        return DistributionSummary.builder(Names.ESTIMATE_SEARCH)
                .description("Join-search times predicted for statements sent to admission, where the server's"
                        + " dialect predicts one (MySQL and MariaDB)")
                .baseUnit("seconds")
                .tag(Names.SERVER, server)
                .serviceLevelObjectives(SEARCH_BUCKETS)
                .register(registry);
    }

    private static DistributionSummary estimates(MeterRegistry registry, String server) {
        return DistributionSummary.builder(Names.ESTIMATE)
                .description("Compile-memory estimates of statements sent to admission")
                .baseUnit(BaseUnits.BYTES)
                .tag(Names.SERVER, server)
                .serviceLevelObjectives(ESTIMATE_BUCKETS)
                .register(registry);
    }

    /** Records into {@code memogate_estimate_bytes} of the proxy's only server, {@value AdmissionControl#ONLY_SERVER}. */
    public EstimateRecorder recorder() {
        return recorder(AdmissionControl.ONLY_SERVER);
    }

    /**
     * Records into {@code memogate_estimate_bytes} tagged {@code server}: the estimates of statements sent to
     * that server's admission, in every registry this binder is bound to, before or after this call.
     */
    public synchronized EstimateRecorder recorder(String server) {
        List<DistributionSummary> bytes = summaries(estimates, server, EstimatorMeters::estimates);
        List<DistributionSummary> seconds = summaries(searches, server, EstimatorMeters::searches);
        return estimate -> {
            if (!estimate.bypass()) {
                for (DistributionSummary summary : bytes) {
                    summary.record(estimate.estimatedBytes());
                }
                if (estimate.searchSeconds() > 0) {
                    for (DistributionSummary summary : seconds) {
                        summary.record(estimate.searchSeconds());
                    }
                }
            }
        };
    }

    /** {@code server}'s summary in every registry bound to, before or after this call. */
    private List<DistributionSummary> summaries(Map<String, List<DistributionSummary>> byServer, String server,
                                                BiFunction<MeterRegistry, String, DistributionSummary> make) {
        return byServer.computeIfAbsent(server, name -> {
            List<DistributionSummary> made = new CopyOnWriteArrayList<>();
            registries.forEach(registry -> made.add(make.apply(registry, name)));
            return made;
        });
    }
}
