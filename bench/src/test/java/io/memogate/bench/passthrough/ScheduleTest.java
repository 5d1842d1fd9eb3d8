package io.memogate.bench.passthrough;

import static io.memogate.bench.targets.TargetKind.DIRECT;
import static io.memogate.bench.targets.TargetKind.HAPROXY;
import static io.memogate.bench.targets.TargetKind.MEMOGATE;
import static io.memogate.bench.targets.TargetKind.PGBOUNCER;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ScheduleTest {

    private final Schedule schedule = new Schedule(List.of(DIRECT, MEMOGATE, PGBOUNCER, HAPROXY));

    @Test
    void eachRoundStartsOneTargetLater() {
        assertThat(schedule.order(1)).containsExactly(DIRECT, MEMOGATE, PGBOUNCER, HAPROXY);
        assertThat(schedule.order(2)).containsExactly(MEMOGATE, PGBOUNCER, HAPROXY, DIRECT);
        assertThat(schedule.order(3)).containsExactly(PGBOUNCER, HAPROXY, DIRECT, MEMOGATE);
        assertThat(schedule.order(4)).containsExactly(HAPROXY, DIRECT, MEMOGATE, PGBOUNCER);
        assertThat(schedule.order(5)).isEqualTo(schedule.order(1));
    }

    @Test
    void withTwoTargetsTheyTakeTurnsGoingFirst() {
        Schedule two = new Schedule(List.of(DIRECT, MEMOGATE));

        assertThat(two.order(1)).containsExactly(DIRECT, MEMOGATE);
        assertThat(two.order(2)).containsExactly(MEMOGATE, DIRECT);
    }
}
