package io.memogate.proxy.postgres.calibrate;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.Tier;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AccuracyStatisticsTest {

    private static final long MIB = 1L << 20;
    private final StaticTiers tiers = StaticTiers.of(GatewaySettings.defaults(4), 256 * MIB);

    @Test
    void idleThresholdsAreTheTargetsFractions() {
        assertThat(tiers).isEqualTo(new StaticTiers(MIB, 64 * MIB, 128 * MIB));
        assertThat(tiers.tierOf(MIB - 1)).isEmpty();
        assertThat(tiers.tierOf(MIB)).contains(Tier.SMALL);
        assertThat(tiers.tierOf(64 * MIB)).contains(Tier.MEDIUM);
        assertThat(tiers.tierOf(128 * MIB)).isEqualTo(Optional.of(Tier.LARGE));
    }

    @Test
    void withinTwiceAndRanksCountOnlyStatementsAboveOneMebibyte() {
        List<Observation> observations = List.of(
                new Observation(100 * 1024, 900 * 1024),  // 9x, but below the floor; same tier (none)
                new Observation(2 * MIB, 3 * MIB),        // 1.5x
                new Observation(10 * MIB, 30 * MIB),      // 3x
                new Observation(100 * MIB, 60 * MIB));    // 0.6x; measured MEDIUM, estimated SMALL

        AccuracyStatistics statistics = AccuracyStatistics.of(observations, tiers);

        assertThat(statistics.statements()).isEqualTo(4);
        assertThat(statistics.aboveFloor()).isEqualTo(3);
        assertThat(statistics.withinTwice()).isEqualTo(2.0 / 3);
        assertThat(statistics.spearman()).isEqualTo(1.0);
        assertThat(statistics.tierAgreement()).isEqualTo(3.0 / 4);
        assertThat(statistics.summary())
                .isEqualTo("Spearman 1.000, within 2x 67% of 3 above 1 MiB, tier agreement 75% of 4");
    }

    /** Enough statements above the floor for the figure to come with how far it can be trusted. */
    @Test
    void fiveStatementsAboveTheFloorGiveTheSpearmanFigureItsInterval() {
        List<Observation> observations = List.of(
                new Observation(2 * MIB, 3 * MIB),
                new Observation(4 * MIB, 5 * MIB),
                new Observation(8 * MIB, 7 * MIB),
                new Observation(16 * MIB, 20 * MIB),
                new Observation(32 * MIB, 30 * MIB));

        AccuracyStatistics statistics = AccuracyStatistics.of(observations, tiers);

        assertThat(statistics.summary()).isEqualTo(
                "Spearman 1.000 (90% interval 1.000-1.000), within 2x 100% of 5 above 1 MiB, tier agreement 100% of 5");
    }
}
