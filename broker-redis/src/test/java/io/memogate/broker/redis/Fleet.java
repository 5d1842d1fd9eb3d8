package io.memogate.broker.redis;

import io.memogate.broker.gateway.CompileMemoryRetention;
import io.memogate.broker.gateway.GatewayListener;
import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.ScheduledGatewayTimer;
import io.memogate.broker.gateway.Ticket;
import io.memogate.broker.gateway.Tier;
import io.memogate.broker.gateway.TierSettings;
import io.memogate.broker.gateway.TierState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToIntFunction;
import java.util.function.Supplier;

/** Instances of one fleet for a test, each its own RedisGateways as each proxy would have; closed together. */
final class Fleet implements AutoCloseable {

    static final long MB = 1L << 20;
    private static final AtomicInteger NAMES = new AtomicInteger();

    private final Supplier<String> uri;
    private final String name = "test" + NAMES.incrementAndGet();
    private final List<RedisGateways> members = new ArrayList<>();
    private final ScheduledGatewayTimer timer = new ScheduledGatewayTimer();
    private Duration lease = Duration.ofSeconds(10);

    Fleet(RedisServer redis) {
        this.uri = redis::uri;
    }

    /** A fleet whose Redis the Sentinels of {@code group} name. */
    Fleet(SentinelGroup group) {
        this.uri = group::uri;
    }

    /** t0 1 MB, fractions 1.0 (a statement needs MEDIUM only beyond target / S), waits of a minute. */
    static GatewaySettings settings(int small, int medium, int large) {
        return new GatewaySettings(MB,
                new TierSettings(small, 1.0, 100, Duration.ofMinutes(1)),
                new TierSettings(medium, 1.0, 100, Duration.ofMinutes(1)),
                new TierSettings(large, 1.0, 100, Duration.ofMinutes(1)));
    }

    Fleet lease(Duration lease) {
        this.lease = lease;
        return this;
    }

    RedisGateways join(GatewaySettings settings, long target) {
        return join(settings, target, GatewayListener.NONE);
    }

    RedisGateways join(GatewaySettings settings, long target, GatewayListener listener) {
        RedisGateways member = new RedisGateways(new FleetSettings(uri.get(), name, lease, Duration.ofMillis(50)),
                "db", settings, target, timer, listener, CompileMemoryRetention.RELEASED_AFTER_COMPILE);
        members.add(member);
        return member;
    }

    /** SMALL permits held in the fleet, as {@code g} reads them from Redis; -1 while its share is in force. */
    static int active(RedisGateways g) {
        return small(g, TierState::active);
    }

    /** Statements waiting for SMALL in the fleet, as {@code g} reads them from Redis; -1 while it cannot. */
    static int waiting(RedisGateways g) {
        return small(g, TierState::waiting);
    }

    private static int small(RedisGateways g, ToIntFunction<TierState> figure) {
        try {
            return g.local() ? -1 : figure.applyAsInt(g.state(Tier.SMALL));
        } catch (FleetUnavailableException e) {
            return -1;
        }
    }

    /** The ticket once admitted; fails when it was refused or is still waiting after {@link Eventually#DEFAULT}. */
    static Ticket admitted(Ticket t) {
        return t.admitted().orTimeout(Eventually.DEFAULT.toSeconds(), TimeUnit.SECONDS).join();
    }

    @Override
    public void close() {
        for (RedisGateways member : members) {
            member.close();
        }
        timer.close();
    }
}
