package io.memogate.broker.redis;

import io.memogate.broker.gateway.CompileMemoryRetention;
import io.memogate.broker.gateway.GatewayListener;
import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.GatewayTimer;
import io.memogate.broker.gateway.LocalGateways;
import io.memogate.broker.gateway.Tier;
import java.util.function.LongSupplier;

/**
 * This instance's share of the fleet's gateways, kept in the process for while Redis is away: every tier's
 * limit and the target divided by N, the number of live instances Redis last counted, so that N instances
 * cut off together still admit about what the fleet would. Follows the fleet's settings and target as this
 * instance sets them, and N as Redis reports it.
 */
final class LocalShare {

    private final LocalGateways gateways;
    private GatewaySettings settings;
    private long target;
    private int instances = 1;

    LocalShare(GatewaySettings settings, long target, LongSupplier nanoTime, GatewayTimer timer,
               GatewayListener listener, CompileMemoryRetention retention) {
        this.settings = settings;
        this.target = target;
        this.gateways = new LocalGateways(settings, target, nanoTime, timer, listener, retention);
    }

    LocalGateways gateways() {
        return gateways;
    }

    synchronized int instances() {
        return instances;
    }

    synchronized void instances(int live) {
        int n = Math.max(1, live);
        if (n != instances) {
            instances = n;
            apply();
        }
    }

    synchronized void settings(GatewaySettings fleetSettings) {
        settings = fleetSettings;
        apply();
    }

    synchronized void target(long fleetTarget) {
        target = fleetTarget;
        gateways.target(fleetTarget / instances);
    }

    private void apply() {
        GatewaySettings share = settings;
        for (Tier tier : Tier.values()) {
            share = share.with(tier, share.tier(tier).withLimit(Math.max(1, settings.tier(tier).limit() / instances)));
        }
        gateways.reconfigure(share);
        gateways.target(target / instances);
    }
}
