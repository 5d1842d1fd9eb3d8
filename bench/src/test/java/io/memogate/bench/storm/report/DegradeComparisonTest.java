package io.memogate.bench.storm.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.bench.storm.load.ConnectionStyle;
import io.memogate.bench.storm.load.Mode;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DegradeComparisonTest {

    private static final long S = 1_000_000_000L;

    private static CellFigures cell(Mode mode, int restarts, Optional<GatewayFigures> gateways) {
        return CellFigures.of(new CellRecord(1, 30, ConnectionStyle.PERSISTENT, mode, mode.label(), 100 * S, 160 * S,
                List.of(), List.of(), 60 * S, List.of(1L << 30), 1L << 30, 0, restarts, 2400, 30_000_000, gateways,
                Optional.empty()));
    }

    @Test
    void showsTheShareOfDegradedStatementsBesideGatewaysOn() {
        CellFigures on = cell(Mode.GATEWAYS_ON, 0, Optional.of(new GatewayFigures(90, 0, 0, 40 * S, 3, 0)));
        CellFigures degrade = cell(Mode.GATEWAYS_DEGRADE, 1,
                Optional.of(new GatewayFigures(150, 2, 0, 5 * S, 1, 38)));

        String table = DegradeComparison.markdown(List.of(on, degrade));

        assertThat(table).contains("| 30 | persistent | gateways-on | 0.0 | - | - | 0 (0.0%) | 0 |")
                .contains("| 30 | persistent | gateways-degrade | 0.0 | - | - | 38 (25.0%) | 1 |");
        assertThat(DegradeComparison.applies(List.of(on))).isFalse();
        assertThat(DegradeComparison.applies(List.of(on, degrade))).isTrue();
    }
}
