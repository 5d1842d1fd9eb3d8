package io.memogate.proxy.metrics;

import io.memogate.broker.Broker;
import io.memogate.broker.BrokerMode;
import io.memogate.broker.gateway.Gateways;
import io.memogate.proxy.admission.AdmissionControl;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The broker's meters, read from its last published state (never by polling the server at scrape
 * time). The target is the one the gateways use, so it is there without a broker too (the static one).
 */
public final class BrokerMeters implements MeterBinder {

    private final String server;
    private final Gateways gateways;
    private final Optional<Broker> broker;

    /** The meters of a proxy's only server, {@value AdmissionControl#ONLY_SERVER}. */
    public BrokerMeters(Gateways gateways, Optional<Broker> broker) {
        this(AdmissionControl.ONLY_SERVER, gateways, broker);
    }

    /** @param server the backend whose broker this is, the {@value Names#SERVER} tag of every meter */
    public BrokerMeters(String server, Gateways gateways, Optional<Broker> broker) {
        this.server = server;
        this.gateways = gateways;
        this.broker = broker;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder(Names.BROKER_TARGET, gateways, Gateways::target)
                .tag(Names.SERVER, server)
                .baseUnit(BaseUnits.BYTES)
                .description("Compile-memory target the gateways admit within")
                .register(registry);
        broker.ifPresent(b -> {
            TimeGauge.builder(Names.BROKER_SNAPSHOT_AGE, b, TimeUnit.SECONDS,
                            x -> x.state().lastGoodAge().map(age -> age.toNanos() / 1e9).orElse(Double.NaN))
                    .tag(Names.SERVER, server)
                    .description("Age of the last good memory snapshot of the server (NaN before the first)")
                    .register(registry);
            FunctionCounter.builder(Names.BROKER_PROBE_FAILURES, b, x -> x.state().totalFailures())
                    .tag(Names.SERVER, server)
                    .description("Polls of the server's memory state that failed")
                    .register(registry);
            for (BrokerMode mode : BrokerMode.values()) {
                Gauge.builder(Names.BROKER_MODE, b, x -> x.state().mode() == mode ? 1 : 0)
                        .tag(Names.SERVER, server)
                        .tag(Names.MODE, mode.name().toLowerCase(Locale.ROOT))
                        .description("1 for the broker's mode: live (polling works), stale (last good snapshot "
                                + "within the grace period), static (configured target)")
                        .register(registry);
            }
        });
    }
}
