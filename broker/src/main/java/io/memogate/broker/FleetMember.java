package io.memogate.broker;

import java.time.Duration;

/**
 * Gateways shared by a fleet of proxies: besides admitting, they elect the one broker per server that polls
 * for the fleet, and say which gateways are in force. The wiring asks {@code gateways instanceof FleetMember}.
 */
public interface FleetMember {

    /**
     * The broker lease of this instance's server in the fleet.
     *
     * @param brokerInterval how often the broker polls, and so renews the lease: the lease lasts at least
     *     three of them, so that one slow poll does not hand it over
     */
    BrokerLeadership brokerLeadership(Duration brokerInterval);
}
