package io.memogate.broker.redis;

import io.memogate.broker.FleetInstance;
import io.memogate.broker.gateway.LedgerState;
import io.memogate.broker.gateway.Tier;
import io.memogate.broker.gateway.TierState;
import io.memogate.broker.gateway.WaitingStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The fleet's gateways as mg_view read them, in one consistent moment: each tier, the ledger, and every
 * waiting statement of every instance.
 */
record FleetView(boolean paused, long target, List<TierState> tiers, LedgerState ledger, List<Waiter> waiters) {

    private static final int TIER_FIELDS = 8;
    private static final int WAITER_FIELDS = 7;

    /**
     * One waiting statement.
     *
     * @param tier the tier it waits for, null for the byte budget
     * @param instance the instance that issued it
     */
    record Waiter(Tier tier, int position, long estimateBytes, long connection, Duration waited, String instance,
                  String id) {
    }

    static FleetView parse(List<String> f) {
        boolean paused = f.get(0).equals("1");
        long target = Long.parseLong(f.get(1));
        long t0 = Long.parseLong(f.get(2));
        List<TierState> tiers = new ArrayList<>();
        int i = 3;
        for (Tier tier : Tier.values()) {
            // The threshold from which a statement needs this tier: t0, then target x F / S of the tier below.
            long threshold = tier == Tier.SMALL ? t0 : (long) (target * Double.parseDouble(f.get(i - TIER_FIELDS + 3))
                    / Math.max(1, Integer.parseInt(f.get(i - TIER_FIELDS + 1))));
            tiers.add(new TierState(tier, Integer.parseInt(f.get(i)), Integer.parseInt(f.get(i + 1)),
                    Integer.parseInt(f.get(i + 2)), threshold, Double.parseDouble(f.get(i + 3)),
                    Duration.ofMillis(Long.parseLong(f.get(i + 4))), Long.parseLong(f.get(i + 5)),
                    Long.parseLong(f.get(i + 6)), Long.parseLong(f.get(i + 7))));
            i += TIER_FIELDS;
        }
        LedgerState ledger = new LedgerState(target, Long.parseLong(f.get(i)), Long.parseLong(f.get(i + 1)),
                Integer.parseInt(f.get(i + 2)), Integer.parseInt(f.get(i + 3)));
        List<Waiter> waiters = new ArrayList<>();
        for (i += 4; i + WAITER_FIELDS <= f.size(); i += WAITER_FIELDS) {
            String queue = f.get(i);
            waiters.add(new Waiter(queue.equals("b") ? null : Decision.tier(queue), Integer.parseInt(f.get(i + 1)),
                    Long.parseLong(f.get(i + 2)), Long.parseLong(f.get(i + 3)),
                    Duration.ofMillis(Long.parseLong(f.get(i + 4))), f.get(i + 5), f.get(i + 6)));
        }
        return new FleetView(paused, target, List.copyOf(tiers), ledger, List.copyOf(waiters));
    }

    /** Every instance's waiting statements, with the tags {@code tagOf} knows (this instance's own). */
    List<WaitingStatement> waiting(Function<String, Object> tagOf) {
        return waiters.stream().map(w -> new WaitingStatement(w.tier(), w.tier() == null, w.position(),
                w.estimateBytes(), w.connection(), w.waited(), tagOf.apply(w.id()), paused, w.instance())).toList();
    }

    /** mg_holders' answer: each instance holding a lease and what it holds; {@code self} is the asking one. */
    static List<FleetInstance> instances(List<String> f, String self) {
        List<FleetInstance> all = new ArrayList<>();
        for (int i = 0; i + 7 <= f.size(); i += 7) {
            all.add(new FleetInstance(f.get(i), f.get(i).equals(self),
                    Duration.ofMillis(Math.max(0, Long.parseLong(f.get(i + 1)))), Integer.parseInt(f.get(i + 2)),
                    Integer.parseInt(f.get(i + 3)), Integer.parseInt(f.get(i + 4)), Long.parseLong(f.get(i + 5)),
                    Integer.parseInt(f.get(i + 6))));
        }
        return List.copyOf(all);
    }

    TierState tier(Tier tier) {
        return tiers.get(tier.ordinal());
    }
}
