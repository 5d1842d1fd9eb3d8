package io.memogate.proxy.metrics;

import io.memogate.proxy.admission.DegradeCounts;
import io.memogate.proxy.admission.Degraded;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;

/**
 * One server's count of degraded statements ({@code admission.degrade}), by tier and reason, read from its
 * admission.
 */
public final class DegradeMeters implements MeterBinder {

    private final String server;
    private final DegradeCounts counts;

    /** @param server the backend, the {@value Names#SERVER} tag */
    public DegradeMeters(String server, DegradeCounts counts) {
        this.server = Objects.requireNonNull(server, "server");
        this.counts = Objects.requireNonNull(counts, "counts");
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (String tier : DegradeCounts.labels()) {
            for (Degraded.Reason reason : Degraded.Reason.values()) {
                FunctionCounter.builder(Names.DEGRADED, counts, c -> c.count(tier, reason))
                        .tag(Names.SERVER, server)
                        .tag(Names.TIER, tier)
                        .tag(Names.REASON, reason.label())
                        .description("Statements run under tighter planner settings than their session's because "
                                + "they could never fit the compile-memory target, waited admission.degrade.after, "
                                + "or were predicted to wait longer")
                        .register(registry);
            }
        }
    }
}
