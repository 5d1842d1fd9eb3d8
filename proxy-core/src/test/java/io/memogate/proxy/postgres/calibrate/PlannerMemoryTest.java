package io.memogate.proxy.postgres.calibrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PlannerMemoryTest {

    /** PostgreSQL 18's EXPLAIN (SUMMARY, MEMORY, COSTS OFF): a node's own "Memory" line must not be taken. */
    @Test
    void readsThePlanningSectionsUsedFigure() {
        String plan = """
                Hash Join
                  Hash Cond: (a.x = b.x)
                  ->  Seq Scan on a
                  ->  Hash
                        Buckets: 1024  Batches: 1  Memory Usage: 9kB
                        ->  Seq Scan on b
                Planning:
                  Memory: used=1234kB  allocated=2048kB
                Planning Time: 0.321 ms
                """;

        assertThat(PlannerMemory.usedBytes(plan)).isEqualTo(1234L * 1024);
    }

    @Test
    void anExplainWithoutPlanningMemoryIsAnError() {
        assertThatThrownBy(() -> PlannerMemory.usedBytes("Seq Scan on a\nPlanning Time: 0.1 ms\n"))
                .isInstanceOf(CalibrationException.class).hasMessageContaining("gave no planning memory");
    }
}
