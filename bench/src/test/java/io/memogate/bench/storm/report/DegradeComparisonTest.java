package io.memogate.bench.storm.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.bench.storm.load.Attempt;
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

    /** The steps come from what each client's NOTICE said, counted by kind, in the window only. */
    @Test
    void countsTheStepsTheDegradedAttemptsTookByKind() {
        List<Attempt> attempts = List.of(
                degraded(110, "enable_memoize = off"),
                degraded(120, "enable_memoize = off"),
                degraded(130, "join_collapse_limit = 12, from_collapse_limit = 12"),
                degraded(140, "enable_partitionwise_join = off, geqo = on, geqo_threshold = 9"),
                degraded(90, "join_collapse_limit = 8, from_collapse_limit = 8"), // warm-up
                new Attempt(1, 9, 1, "t01", 140 * S, 150 * S, Optional.empty()));
        CellRecord record = new CellRecord(1, 30, ConnectionStyle.PERSISTENT, Mode.GATEWAYS_DEGRADE, "degrade",
                100 * S, 160 * S, attempts, List.of(), 60 * S, List.of(1L << 30), 1L << 30, 0, 0, 2400, 30_000_000,
                Optional.empty(), Optional.empty());

        assertThat(DegradeComparison.steps(record)).isEqualTo("Memoize off 2, GEQO 1, lower collapse limits 1");
        assertThat(DegradeComparison.markdown(List.of(CellFigures.of(record))))
                .contains("Steps the degraded attempts took, 30 persistent (the clients' NOTICEs, attempts that ended"
                        + " in the window): Memoize off 2, GEQO 1, lower collapse limits 1.");
    }

    private static Attempt degraded(long end, String settings) {
        return new Attempt(1, end, 1, "t01", (end - 5) * S, end * S, Optional.empty(), Optional.of(settings));
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
