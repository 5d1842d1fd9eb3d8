package io.memogate.proxy.metrics;

import io.memogate.broker.gateway.GatewayListener;
import io.memogate.broker.gateway.GatewayRejectedException;
import io.memogate.broker.gateway.Gateways;
import io.memogate.broker.gateway.Tier;
import io.memogate.proxy.admission.AdmissionControl;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * The gateways' meters. Gauges and counters read {@link Gateways#state} at scrape time (state that
 * exists anyway); the wait-time histogram is fed by the gateways as a {@link GatewayListener}, the
 * only place that knows each admitted statement's wait.
 */
public final class GatewayMeters implements MeterBinder, GatewayListener {

    private final Tags serverTag;
    /** Set once the gateways exist: they take this object as their listener when they are built. */
    private volatile Gateways gateways;
    /** Per registry bound to (usually one, the composite), the wait timers by tier. */
    private final List<Map<Tier, Timer>> waits = new CopyOnWriteArrayList<>();

    /** The meters of a proxy's only server, {@value AdmissionControl#ONLY_SERVER}. */
    public GatewayMeters() {
        this(AdmissionControl.ONLY_SERVER);
    }

    /** @param server the backend whose gateways these are, the {@value Names#SERVER} tag of every meter */
    public GatewayMeters(String server) {
        this.serverTag = Tags.of(Names.SERVER, server);
    }

    public void gateways(Gateways gateways) {
        this.gateways = gateways;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Gateways bound = gateways;
        if (bound == null) {
            throw new IllegalStateException("bind after gateways(...)");
        }
        Map<Tier, Timer> timers = new EnumMap<>(Tier.class);
        for (Tier tier : Tier.values()) {
            Tags tags = serverTag.and(Names.TIER, tag(tier));
            gauge(registry, Names.GATEWAY_ACTIVE, tags, null, "Compilations admitted through the tier and not yet released",
                    g -> g.state(tier).active());
            gauge(registry, Names.GATEWAY_WAITING, tags, null, "Statements queued for the tier",
                    g -> g.state(tier).waiting());
            gauge(registry, Names.GATEWAY_LIMIT, tags, null, "Concurrent compilations the tier allows",
                    g -> g.state(tier).limit());
            gauge(registry, Names.GATEWAY_THRESHOLD, tags, BaseUnits.BYTES,
                    "Estimate from which a statement needs the tier (t0, t1, t2 as they stand now)",
                    g -> g.state(tier).thresholdBytes());
            counter(registry, Names.GATEWAY_ADMITTED, tags, "Statements admitted holding this tier",
                    g -> g.state(tier).admittedTotal());
            counter(registry, Names.GATEWAY_TIMEOUTS, tags, "Statements that waited longer than the tier's timeout",
                    g -> g.state(tier).timeoutsTotal());
            counter(registry, Names.GATEWAY_REJECTED, tags.and(Names.REASON, "timeout"),
                    "Statements refused by the tier", g -> g.state(tier).timeoutsTotal());
            counter(registry, Names.GATEWAY_REJECTED, tags.and(Names.REASON, "queue_full"),
                    "Statements refused by the tier", g -> g.state(tier).queueFullTotal());
            timers.put(tier, Timer.builder(Names.GATEWAY_WAIT)
                    .description("Time statements queued before the gateways admitted them, by the highest tier held")
                    .tags(tags)
                    .publishPercentileHistogram()
                    .minimumExpectedValue(Duration.ofMillis(1))
                    .maximumExpectedValue(Duration.ofMinutes(10))
                    .register(registry));
        }
        gauge(registry, Names.GATEWAY_PAUSED, serverTag, null,
                "1 while the gateways are paused (admin console PAUSE): new statements at or above t0 queue",
                g -> g.paused() ? 1 : 0);
        gauge(registry, Names.BUDGET_USED, serverTag, BaseUnits.BYTES,
                "Memory the byte budget counts: each server connection's retained memory or its compile in flight",
                g -> g.ledger().totalBytes());
        gauge(registry, Names.BUDGET_WAITING, serverTag, null,
                "Statements holding their tiers and waiting for the byte budget", g -> g.ledger().budgetWaiting());
        waits.add(timers);
    }

    @Override
    public void admitted(Tier highestOrNull, long waitedNanos, long estimateBytes) {
        if (highestOrNull == null) {
            return;
        }
        for (Map<Tier, Timer> timers : waits) {
            timers.get(highestOrNull).record(waitedNanos, TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public void rejected(Tier tier, GatewayRejectedException.Reason reason, long waitedNanos, long estimateBytes) {
        // Counted from the gateways' own totals at scrape time.
    }

    private void gauge(MeterRegistry registry, String name, Tags tags, String unit, String description,
            ToDoubleFunction<Gateways> value) {
        Gauge.builder(name, gateways, value).tags(tags).baseUnit(unit).description(description).register(registry);
    }

    private void counter(MeterRegistry registry, String name, Tags tags, String description,
            ToDoubleFunction<Gateways> value) {
        FunctionCounter.builder(name, gateways, value).tags(tags).description(description).register(registry);
    }

    static String tag(Tier tier) {
        return tier.name().toLowerCase(Locale.ROOT);
    }
}
