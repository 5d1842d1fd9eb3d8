package io.memogate.broker;

import java.util.Objects;

/**
 * Who polls a server for a fleet. Each server has one broker for the whole fleet: the instance holding the
 * broker's lease leads (polls and publishes the target), the others follow (read the target it published).
 * An instance with no fleet, or whose fleet's store is away, polls for itself.
 *
 * @param kind   this instance's part
 * @param epoch  the lease's fencing epoch: it grows with every new leader, and a publication made under an
 *               older one is refused; 0 when alone
 * @param leader the leading instance's name; empty when alone
 */
public record BrokerRole(Kind kind, long epoch, String leader) {

    /** An instance's part in polling its server. */
    public enum Kind {
        /** No fleet, or its store is away: this instance polls for itself, as a single proxy does. */
        ALONE,
        /** This instance holds the lease: it polls the server and publishes the target for the fleet. */
        LEADER,
        /** Another instance leads: this one polls nothing and takes the target the leader published. */
        FOLLOWER
    }

    public static final BrokerRole ALONE = new BrokerRole(Kind.ALONE, 0, "");

    public BrokerRole {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(leader, "leader");
        if (epoch < 0) {
            throw new IllegalArgumentException("epoch must be >= 0, was " + epoch);
        }
    }

    public static BrokerRole leader(long epoch, String self) {
        return new BrokerRole(Kind.LEADER, epoch, self);
    }

    public static BrokerRole follower(long epoch, String leader) {
        return new BrokerRole(Kind.FOLLOWER, epoch, leader);
    }

    /** True when this instance polls the server: it leads, or it is alone. */
    public boolean polls() {
        return kind != Kind.FOLLOWER;
    }
}
