package io.memogate.proxy.metrics;

import io.memogate.broker.redis.RedisGateways;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Which gateways admit a server's statements when the proxy is one of a fleet: the fleet's, in Redis, or
 * this proxy's share while Redis is away; and how many proxies the share divides by. Read from state the
 * gateways keep, without asking Redis.
 */
public final class FleetMeters implements MeterBinder {

    private final String server;
    private final RedisGateways gateways;

    public FleetMeters(String server, RedisGateways gateways) {
        this.server = server;
        this.gateways = gateways;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (boolean local : new boolean[] {false, true}) {
            Gauge.builder(Names.FLEET_MODE, gateways, g -> g.local() == local ? 1 : 0)
                    .tag(Names.SERVER, server)
                    .tag(Names.MODE, local ? "local" : "fleet")
                    .description("1 for the gateways in force: fleet (shared in Redis) or local (this proxy's share"
                            + " of the limits while Redis is away)")
                    .register(registry);
        }
        Gauge.builder(Names.FLEET_INSTANCES, gateways, RedisGateways::fleetSize)
                .tag(Names.SERVER, server)
                .description("Proxies of the fleet holding a lease, as Redis last counted them: the local share's divisor")
                .register(registry);
    }
}
