package io.memogate.bench.jmh;

import io.memogate.estimator.CompileEstimate;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.postgres.PlannerSettings;
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
 * statement as simple mode sends it (a literal, another one each time, so each call is a new text; the
 * call includes making that String) and as prepared mode's Bind names it ($1, the same text each time).
 * This is the difference between the passthrough targets memogate-gated and memogate, less the gateways,
 * which such a statement never reaches. Run: {@code bin/memogate bench jmh EstimatorBench -f 1 -wi 3 -i 5}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class EstimatorBench {

    /** pgbench's built-in select-only script, as simple mode writes it with a value for :aid. */
    private static final String SIMPLE = "SELECT abalance FROM pgbench_accounts WHERE aid = ";
    private static final String PREPARED = "SELECT abalance FROM pgbench_accounts WHERE aid = $1;";
    /** pgbench -s 10 has a million accounts. */
    private static final int ACCOUNTS = 1_000_000;

    private final CompileEstimator estimator = new CompileEstimator();
    private int aid;

    @Benchmark
    public CompileEstimate pgbenchSelectSimple() {
        aid = aid == ACCOUNTS ? 1 : aid + 1;
        return estimator.estimate(SIMPLE + aid + ";", PlannerSettings.DEFAULTS);
    }

    @Benchmark
    public CompileEstimate pgbenchSelectPrepared() {
        return estimator.estimate(PREPARED, PlannerSettings.DEFAULTS);
    }
}
