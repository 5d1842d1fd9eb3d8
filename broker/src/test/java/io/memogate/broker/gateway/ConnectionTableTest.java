package io.memogate.broker.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ConnectionTableTest {

    /** Few distinct pids, many removals: long probe runs that deletions must keep reachable. */
    @Test
    void behavesLikeAMapThroughGrowthAndRemovals() {
        ConnectionTable table = new ConnectionTable();
        Map<Long, ByteLedger.Connection> expected = new HashMap<>();
        SplittableRandom random = new SplittableRandom(7);
        for (int step = 0; step < 200_000; step++) {
            long pid = random.nextInt(step < 100_000 ? 40 : 400);
            switch (random.nextInt(3)) {
                case 0 -> {
                    ByteLedger.Connection c = table.getOrCreate(pid);
                    assertThat(c.id).isEqualTo(pid);
                    ByteLedger.Connection before = expected.putIfAbsent(pid, c);
                    if (before != null) {
                        assertThat(c).isSameAs(before);
                    }
                }
                case 1 -> assertThat(table.remove(pid)).isSameAs(expected.remove(pid));
                default -> assertThat(table.get(pid)).isSameAs(expected.get(pid));
            }
            assertThat(table.size()).isEqualTo(expected.size());
        }
        assertThat(table.entries()).containsExactlyInAnyOrderElementsOf(expected.values());
    }
}
