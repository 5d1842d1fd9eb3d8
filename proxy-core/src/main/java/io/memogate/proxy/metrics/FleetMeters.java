package io.memogate.proxy.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;

/**
 * Which gateways admit a server's statements when the proxy is one of a fleet: the fleet's, in Redis, or
 * this proxy's share while Redis is away; and how many proxies the share divides by. Read from state the
 * gateways keep (RedisGateways' local() and fleetSize()), without asking Redis.
 */
public final class FleetMeters implements MeterBinder {

    private final String server;
    private final BooleanSupplier local;
    private final IntSupplier instances;

    /**
     * @param local true while the proxy's share of the gateways is in force
     * @param instances the proxies of the fleet, as Redis last counted them
     */
    public FleetMeters(String server, BooleanSupplier local, IntSupplier instances) {
        this.server = server;
        this.local = local;
        this.instances = instances;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (boolean whenLocal : new boolean[] {false, true}) {
            Gauge.builder(Names.FLEET_MODE, () -> local.getAsBoolean() == whenLocal ? 1 : 0)
                    .tag(Names.SERVER, server)
                    .tag(Names.MODE, whenLocal ? "local" : "fleet")
                    .description("1 for the gateways in force: fleet (shared in Redis) or local (this proxy's share"
                            + " of the limits while Redis is away)")
                    .register(registry);
        }
        Gauge.builder(Names.FLEET_INSTANCES, instances::getAsInt)
                .tag(Names.SERVER, server)
                .description("Proxies of the fleet holding a lease, as Redis last counted them: the local share's divisor")
                .register(registry);
    }
}
