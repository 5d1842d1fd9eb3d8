package io.memogate.broker;

import java.util.Optional;

/**
 * How a fleet elects one broker per server: a lease with a fencing epoch, kept where the fleet keeps its
 * gateways. {@link io.memogate.broker.Broker} asks before every poll. Implementations must not throw when
 * their store is away: they answer {@link BrokerRole#ALONE}, and the broker then polls for itself.
 */
public interface BrokerLeadership {

    /** A proxy without a fleet: always alone. */
    BrokerLeadership ALONE = new BrokerLeadership() {
        @Override
        public BrokerRole claim() {
            return BrokerRole.ALONE;
        }

        @Override
        public boolean publish(BrokerRole leader, BrokerState state) {
            return false;
        }

        @Override
        public Optional<PublishedTarget> published() {
            return Optional.empty();
        }
    };

    /** Takes the lease when it is free, renews it when this instance holds it, else names the leader. */
    BrokerRole claim();

    /**
     * Publishes a leader's state for the followers; false, and nothing written, when {@code leader}'s epoch no
     * longer holds the lease (another instance took it meanwhile) or the store is away.
     */
    boolean publish(BrokerRole leader, BrokerState state);

    /** The leader's last publication; empty when there is none or the store is away. */
    Optional<PublishedTarget> published();
}
