package io.memogate.bench.storm;

import io.memogate.bench.storm.report.GatewayFigures;
import io.memogate.broker.gateway.GatewayListener;
import io.memogate.broker.gateway.GatewayRejectedException;
import io.memogate.broker.gateway.Tier;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the gateways' decisions over a whole cell (warm-up included), so the report can set the
 * proxy's own figures beside what the clients saw.
 */
final class GatewayCounter implements GatewayListener {

    private final AtomicLong admitted = new AtomicLong();
    private final AtomicLong timeouts = new AtomicLong();
    private final AtomicLong queueFull = new AtomicLong();
    private final AtomicLong longestWait = new AtomicLong();

    @Override
    public void admitted(Tier highestOrNull, long waitedNanos, long estimateBytes) {
        admitted.incrementAndGet();
        longestWait.accumulateAndGet(waitedNanos, Math::max);
    }

    @Override
    public void rejected(Tier tier, GatewayRejectedException.Reason reason, long waitedNanos, long estimateBytes) {
        (reason == GatewayRejectedException.Reason.TIMEOUT ? timeouts : queueFull).incrementAndGet();
    }

    GatewayFigures counts() {
        return new GatewayFigures(admitted.get(), timeouts.get(), queueFull.get(), longestWait.get(), 0, 0);
    }
}
