package io.memogate.broker.redis;

import io.memogate.broker.BrokerLeadership;
import io.memogate.broker.BrokerMode;
import io.memogate.broker.BrokerRole;
import io.memogate.broker.BrokerState;
import io.memogate.broker.PressureSignal;
import io.memogate.broker.PublishedTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One broker per server for a fleet, elected in the fleet's Redis (gateways.lua, mgb_*): a lease key holding
 * the leader and its fencing epoch, renewed at each of its polls; the leader's publication, written only
 * under the epoch that holds the lease. Redis away is {@link BrokerRole#ALONE}: the broker polls for itself.
 */
final class RedisBrokerLeadership implements BrokerLeadership {

    private final FleetClient redis;
    private final String instance;
    private final String leaseMillis;

    /** @param lease how long a leader that stopped polling keeps the lease */
    RedisBrokerLeadership(FleetClient redis, String instance, Duration lease) {
        this.redis = redis;
        this.instance = instance;
        this.leaseMillis = Long.toString(lease.toMillis());
    }

    @Override
    public BrokerRole claim() {
        try {
            List<Object> answer = redis.callPlainAndWait("mgb_lead", instance, leaseMillis);
            long epoch = (Long) answer.get(0);
            String holder = String.valueOf(answer.get(1));
            return holder.equals(instance) ? BrokerRole.leader(epoch, instance) : BrokerRole.follower(epoch, holder);
        } catch (FleetUnavailableException e) {
            return BrokerRole.ALONE;
        }
    }

    @Override
    public boolean publish(BrokerRole leader, BrokerState state) {
        List<String> args = new ArrayList<>(List.of(instance, Long.toString(leader.epoch()),
                Long.toString(state.targetBytes()), state.mode().name(),
                state.pressureSignals().stream().map(PressureSignal::name).collect(Collectors.joining(","))));
        state.plannerSettings().forEach((name, value) -> {
            args.add(name);
            args.add(value);
        });
        try {
            return Long.valueOf(1).equals(redis.callPlainAndWait("mgb_publish", args.toArray(String[]::new)).get(0));
        } catch (FleetUnavailableException e) {
            return false;
        }
    }

    @Override
    public Optional<PublishedTarget> published() {
        List<String> f;
        try {
            f = redis.callPlainAndWait("mgb_read").stream().map(String::valueOf).toList();
        } catch (FleetUnavailableException e) {
            return Optional.empty();
        }
        if (f.isEmpty()) {
            return Optional.empty();
        }
        Set<PressureSignal> signals = f.get(5).isEmpty() ? Set.of() : Arrays.stream(f.get(5).split(","))
                .map(name -> PressureSignal.valueOf(name.toUpperCase(Locale.ROOT))).collect(Collectors.toSet());
        Map<String, String> settings = new LinkedHashMap<>();
        for (int i = 6; i + 1 < f.size(); i += 2) {
            settings.put(f.get(i), f.get(i + 1));
        }
        return Optional.of(new PublishedTarget(Long.parseLong(f.get(3)), BrokerMode.valueOf(f.get(4)),
                Long.parseLong(f.get(1)), f.get(0), Duration.ofMillis(Math.max(0, Long.parseLong(f.get(2)))), signals,
                settings));
    }
}
