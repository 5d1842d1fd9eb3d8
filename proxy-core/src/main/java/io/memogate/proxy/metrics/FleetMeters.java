package io.memogate.proxy.metrics;

import io.memogate.broker.BrokerRole;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * Which gateways admit a server's statements when the proxy is one of a fleet: the fleet's, in Redis, or
 * this proxy's share while Redis is away; and how many proxies the share divides by. With a broker, also its
 * part in polling the server for the fleet (leader, follower, or alone while Redis is away) and the lease's
 * epoch. Read from state the gateways and the broker keep (RedisGateways' local() and fleetSize(), the
 * broker's last state), without asking Redis.
 */
public final class FleetMeters implements MeterBinder {

    private final String server;
    private final BooleanSupplier local;
    private final IntSupplier instances;
    private final Optional<Supplier<BrokerRole>> brokerRole;

    /**
     * @param local true while the proxy's share of the gateways is in force
     * @param instances the proxies of the fleet, as Redis last counted them
     * @param brokerRole the broker's role as of its last poll; empty without a broker
     */
    public FleetMeters(String server, BooleanSupplier local, IntSupplier instances,
                       Optional<Supplier<BrokerRole>> brokerRole) {
        this.server = server;
        this.local = local;
        this.instances = instances;
        this.brokerRole = brokerRole;
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
        brokerRole.ifPresent(role -> {
            for (BrokerRole.Kind kind : BrokerRole.Kind.values()) {
                Gauge.builder(Names.FLEET_BROKER_ROLE, () -> role.get().kind() == kind ? 1 : 0)
                        .tag(Names.SERVER, server)
                        .tag(Names.ROLE, kind.name().toLowerCase(Locale.ROOT))
                        .description("1 for this proxy's part in polling the server for the fleet: leader (polls and"
                                + " publishes the target), follower (takes the leader's), alone (Redis away: polls for"
                                + " itself)")
                        .register(registry);
            }
            Gauge.builder(Names.FLEET_BROKER_EPOCH, () -> role.get().epoch())
                    .tag(Names.SERVER, server)
                    .description("Fencing epoch of the broker lease this proxy leads or follows (grows with every new"
                            + " leader); 0 when alone")
                    .register(registry);
        });
    }
}
