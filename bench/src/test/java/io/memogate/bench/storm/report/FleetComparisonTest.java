package io.memogate.bench.storm.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.bench.storm.load.ConnectionStyle;
import io.memogate.bench.storm.load.Mode;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FleetComparisonTest {

    private static final long S = 1_000_000_000L;
    private static final long HOST = 2L << 30;

    private static CellFigures cell(Mode mode, long peak, int kills, int restarts) {
        return CellFigures.of(new CellRecord(1, 12, ConnectionStyle.PERSISTENT, mode, mode.label(), 100 * S, 160 * S,
                List.of(), List.of(), 60 * S, List.of(peak), peak, kills, restarts, 2400, 30_000_000, Optional.empty(),
                Optional.empty()));
    }

    @Test
    void sharedGatewaysMeetTheGoalWhenOnlyTheIndependentInstancesExceedTheHost() {
        CellFigures shared = cell(Mode.FLEET, HOST - (100L << 20), 0, 0);
        CellFigures own = cell(Mode.GATEWAYS_ON, HOST + (1L << 20), 2, 2);

        assertThat(FleetComparison.verdict(shared, own, HOST)).startsWith("met");
        assertThat(FleetComparison.markdown(List.of(own, shared), HOST))
                .contains("| 12 | persistent | one set through Redis (fleet) | 0 | - | 1.90 GiB | 95% | 0 | 0 |")
                .contains("| 12 | persistent | each its own (gateways-on) | 0 | - | 2.00 GiB | 100% | 2 | 2 |")
                .contains("- 12 persistent: met");
    }

    @Test
    void aKillWithSharedGatewaysMissesTheGoalEvenBelowTheHost() {
        CellFigures shared = cell(Mode.FLEET, HOST / 2, 1, 0);
        CellFigures own = cell(Mode.GATEWAYS_ON, HOST + 1, 3, 3);

        assertThat(FleetComparison.verdict(shared, own, HOST)).startsWith("not met");
    }

    @Test
    void bothWithinTheHostShowsNothing() {
        CellFigures shared = cell(Mode.FLEET, HOST / 2, 0, 0);
        CellFigures own = cell(Mode.GATEWAYS_ON, HOST / 2, 0, 0);

        assertThat(FleetComparison.verdict(shared, own, HOST)).startsWith("not shown");
        assertThat(FleetComparison.applies(List.of(own))).isFalse();
    }
}
