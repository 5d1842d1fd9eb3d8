package io.memogate.bench.jmh;

import io.memogate.bench.process.PrivateRedis;
import io.memogate.broker.gateway.CompileMemoryRetention;
import io.memogate.broker.gateway.GatewayListener;
import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.Gateways;
import io.memogate.broker.gateway.LocalGateways;
import io.memogate.broker.gateway.ScheduledGatewayTimer;
import io.memogate.broker.gateway.Ticket;
import io.memogate.broker.redis.FleetSettings;
import io.memogate.broker.redis.RedisGateways;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What a gated statement that does not wait pays for its permits: acquire, until admitted, then release, on one
 * thread, with the gateways of this process ({@code local}) or those a fleet shares through Redis ({@code redis}:
 * a private {@code redis-server} on a free port of 127.0.0.1, started for the run, never the machine's own). A
 * fleet's acquire is one round trip to Redis, and its release another, sent without waiting; statements below t0
 * never touch Redis, which {@link GatewayBench#ungated} measures. Run:
 * {@code java -cp bench/target/memogate-bench.jar org.openjdk.jmh.Main FleetGatewayBench -f 1 -wi 3 -i 5}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class FleetGatewayBench {

    private static final long CONNECTION = 31_337;
    private static final long TARGET = 1L << 30;
    /** t0 is 1 MiB and t1 = 1 GiB x 0.25 at S = 1: 4 MiB needs SMALL only. */
    private static final long SMALL_ESTIMATE = 4L << 20;

    @Param({"local", "redis"})
    public String gateways;

    private PrivateRedis redis;
    private ScheduledGatewayTimer timer;
    private Gateways gated;

    @Setup
    public void setUp() throws IOException, InterruptedException {
        timer = new ScheduledGatewayTimer();
        GatewaySettings settings = GatewaySettings.defaults(4);
        if (gateways.equals("local")) {
            gated = new LocalGateways(settings, TARGET, System::nanoTime, timer, GatewayListener.NONE);
            return;
        }
        redis = PrivateRedis.start();
        FleetSettings fleet = new FleetSettings(redis.uri(), "bench",
                FleetSettings.DEFAULT_LEASE, FleetSettings.DEFAULT_POLL_INTERVAL);
        gated = new RedisGateways(fleet, "bench", settings, TARGET, timer, GatewayListener.NONE,
                CompileMemoryRetention.RELEASED_AFTER_COMPILE);
    }

    @TearDown
    public void tearDown() throws IOException {
        if (gated instanceof RedisGateways fleet) {
            fleet.close();
        }
        timer.close();
        if (redis != null) {
            redis.close();
        }
    }

    @Benchmark
    public Ticket smallTier() {
        Ticket t = gated.acquire(SMALL_ESTIMATE, CONNECTION);
        t.admitted().join();
        t.release();
        return t;
    }
}
