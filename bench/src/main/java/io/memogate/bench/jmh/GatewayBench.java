package io.memogate.bench.jmh;

import io.memogate.broker.gateway.GatewayListener;
import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.Gateways;
import io.memogate.broker.gateway.LocalGateways;
import io.memogate.broker.gateway.ScheduledGatewayTimer;
import io.memogate.broker.gateway.Ticket;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What admission costs a statement that does not wait: acquire + release on one thread, nothing queued.
 * {@code smallTier} is gated (between t0 and t1: SMALL only, plus the byte budget); {@code ungated} is
 * below t0 and takes no lock. Run:
 * {@code java -cp bench/target/memogate-bench.jar org.openjdk.jmh.Main GatewayBench -f 1 -wi 3 -i 5}; against
 * another ref, both alternating in one run: {@code bench/scripts/jmh-ab.sh --base main GatewayBench}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class GatewayBench {

    /** A backend pid outside the Long cache, so the ledger's lookup pays for boxing as in production. */
    private static final long CONNECTION = 31_337;
    private static final long TARGET = 1L << 30;
    /** t0 is 1 MiB and t1 = 1 GiB x 0.25 at S = 1: 4 MiB needs SMALL only. */
    private static final long SMALL_ESTIMATE = 4L << 20;
    private static final long UNGATED_ESTIMATE = 64L << 10;

    private ScheduledGatewayTimer timer;
    private Gateways gateways;

    @Setup
    public void setUp() {
        timer = new ScheduledGatewayTimer();
        gateways = new LocalGateways(GatewaySettings.defaults(4), TARGET, System::nanoTime, timer,
                GatewayListener.NONE);
    }

    @TearDown
    public void tearDown() {
        timer.close();
    }

    @Benchmark
    public Ticket smallTier() {
        Ticket t = gateways.acquire(SMALL_ESTIMATE, CONNECTION);
        t.release();
        return t;
    }

    @Benchmark
    public Ticket ungated() {
        Ticket t = gateways.acquire(UNGATED_ESTIMATE, CONNECTION);
        t.release();
        return t;
    }
}
