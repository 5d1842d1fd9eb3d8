package io.memogate.broker;

import java.time.Duration;
import java.util.List;

/**
 * Gateways shared by a fleet of proxies: besides admitting, they elect the one broker per server that polls
 * for the fleet, and say which gateways are in force and who holds what. The wiring and the admin console
 * ask {@code gateways instanceof FleetMember}.
 */
public interface FleetMember {

    /**
     * The broker lease of this instance's server in the fleet.
     *
     * @param brokerInterval how often the broker polls, and so renews the lease: the lease lasts at least
     *     three of them, so that one slow poll does not hand it over
     */
    BrokerLeadership brokerLeadership(Duration brokerInterval);

    /** The fleet's name, shared by its instances. */
    String fleetName();

    /** This instance's name in the fleet. */
    String instance();

    /**
     * True while the fleet's store is away and this instance admits by its own share of the gateways (the
     * limits and target divided by {@link #fleetSize()}); false while the fleet's shared gateways are in force.
     */
    boolean local();

    /** The instances the store last counted: the local share's divisor. */
    int fleetSize();

    /**
     * Every instance holding a lease, with what it holds, read from the store now.
     *
     * @throws io.memogate.broker.gateway.GatewaysUnavailableException when the store does not answer
     */
    List<FleetInstance> instances();
}
