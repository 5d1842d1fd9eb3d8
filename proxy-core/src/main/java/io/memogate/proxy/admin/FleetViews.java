package io.memogate.proxy.admin;

import io.memogate.broker.Broker;
import io.memogate.broker.BrokerRole;
import io.memogate.broker.FleetInstance;
import io.memogate.broker.FleetMember;
import io.memogate.broker.gateway.Gateways;
import io.memogate.broker.gateway.Tier;
import io.memogate.broker.gateway.WaitingStatement;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What the console's views of admission add for a server whose gateways a fleet of proxies shares: which
 * gateways are in force (the fleet's, or this proxy's share while the fleet's store is away), which instance
 * holds what, and which instance's broker polls the server. A server of a proxy alone gets none of it.
 */
final class FleetViews {

    /** SHOW TIERS' columns for a fleet, after the others. */
    static final List<String> TIER_COLUMNS = List.of("gateways", "held_by");
    /** SHOW QUEUE's column for a fleet, after the others. */
    static final String QUEUE_COLUMN = "instance";

    private FleetViews() {
    }

    static Optional<FleetMember> of(Gateways gateways) {
        return gateways instanceof FleetMember fleet ? Optional.of(fleet) : Optional.empty();
    }

    /** Each instance holding a lease and what it holds; none while this proxy's share is in force. */
    static List<FleetInstance> instances(FleetMember fleet) {
        return fleet.local() ? List.of() : fleet.instances();
    }

    /** SHOW TIERS' fleet columns for {@code tier}: the gateways in force, and the instances holding its permits. */
    static List<Object> tierColumns(FleetMember fleet, List<FleetInstance> instances, Tier tier) {
        String heldBy = instances.stream().filter(i -> i.held(tier) > 0)
                .map(i -> name(i) + ": " + i.held(tier)).collect(Collectors.joining(", "));
        return List.of(gateways(fleet), heldBy);
    }

    /** SHOW QUEUE's fleet column: the instance whose client sent the statement. */
    static String instanceOf(FleetMember fleet, WaitingStatement waiting) {
        if (waiting.instance() == null) {
            return fleet.instance() + " (this)"; // this proxy's share, while the fleet's store is away
        }
        return waiting.instance().equals(fleet.instance()) ? waiting.instance() + " (this)" : waiting.instance();
    }

    /** SHOW BROKER's rows for a fleet: the gateways in force, the instances, and who polls the server. */
    static void brokerRows(ResultTable.Builder table, FleetMember fleet, Optional<Broker> broker) {
        table.row("fleet", fleet.fleetName());
        table.row("fleet_instance", fleet.instance());
        table.row("fleet_gateways", gateways(fleet));
        table.row("fleet_instances", fleet.fleetSize());
        if (broker.isEmpty()) {
            return;
        }
        BrokerRole role = broker.get().state().role();
        table.row("broker_role", role.kind().name().toLowerCase(Locale.ROOT));
        table.row("broker_epoch", role.kind() == BrokerRole.Kind.ALONE ? null : role.epoch());
        table.row("broker_leader", role.kind() == BrokerRole.Kind.ALONE ? null : role.leader());
    }

    /** "shared", or "local share" with its divisor while the fleet's store is away. */
    private static String gateways(FleetMember fleet) {
        return fleet.local() ? "local share: limits and target / " + fleet.fleetSize() : "shared";
    }

    private static String name(FleetInstance instance) {
        return instance.self() ? instance.name() + " (this)" : instance.name();
    }
}
