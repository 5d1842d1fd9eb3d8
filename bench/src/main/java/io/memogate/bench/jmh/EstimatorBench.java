package io.memogate.bench.jmh;

import io.memogate.estimator.CompileEstimate;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.planner.PlannerSettings;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * What the gated admission hook adds to a statement that bypasses the gateways: the estimator's lexer
 * (split, classify, fingerprint, bound the relations) and the bypass estimate, for pgbench -S's one
 * statement as simple mode sends it (a literal) and as prepared mode's Bind names it ($1). This is the
 * difference between the passthrough targets memogate-gated and memogate, less the gateways, which
 * such a statement never reaches. Run: {@code bin/memogate bench jmh EstimatorBench -f 1 -wi 3 -i 5}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class EstimatorBench {

    /** pgbench's built-in select-only script, with one value for :aid. */
    private static final String SIMPLE = "SELECT abalance FROM pgbench_accounts WHERE aid = 731408;";
    private static final String PREPARED = "SELECT abalance FROM pgbench_accounts WHERE aid = $1;";

    private final CompileEstimator estimator = new CompileEstimator();

    @Benchmark
    public CompileEstimate pgbenchSelectSimple() {
        return estimator.estimate(SIMPLE, PlannerSettings.DEFAULTS);
    }

    @Benchmark
    public CompileEstimate pgbenchSelectPrepared() {
        return estimator.estimate(PREPARED, PlannerSettings.DEFAULTS);
    }
}
