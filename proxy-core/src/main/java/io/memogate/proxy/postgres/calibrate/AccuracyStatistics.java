package io.memogate.proxy.postgres.calibrate;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import io.memogate.proxy.calibrate.RankCorrelation;
import io.memogate.proxy.calibrate.SpearmanInterval;

/**
 * How well estimates match measurements, by the figures the estimator's targets are set in: over the statements
 * measured above {@link #FLOOR_BYTES} (those admission cares about; below it a statement passes t0
 * without a gateway), Spearman's rank correlation and the share within 2x; over all statements, the
 * share whose estimate falls in the same {@link StaticTiers tier} as their measurement.
 *
 * @param statements observations in all
 * @param aboveFloor observations measured above {@link #FLOOR_BYTES}
 * @param spearman rank correlation over those above the floor; NaN with fewer than two
 * @param spearmanInterval how far {@code spearman} can be trusted over so many statements ({@link SpearmanInterval})
 * @param withinTwice share of those above the floor estimated within 2x; NaN when there are none
 * @param tierAgreement share of all observations whose estimate and measurement take the same tier; NaN
 *     when there are none
 */
public record AccuracyStatistics(int statements, int aboveFloor, double spearman, SpearmanInterval spearmanInterval,
                                 double withinTwice, double tierAgreement) {

    /** 1 MiB: the size above which a miss matters, and the default t0. */
    public static final long FLOOR_BYTES = 1L << 20;

    public static AccuracyStatistics of(List<Observation> observations, StaticTiers tiers) {
        Objects.requireNonNull(tiers, "tiers");
        List<Observation> above = observations.stream().filter(o -> o.measuredBytes() > FLOOR_BYTES).toList();
        double[] measured = above.stream().mapToDouble(Observation::measuredBytes).toArray();
        double[] estimated = above.stream().mapToDouble(Observation::estimatedBytes).toArray();
        double spearman = RankCorrelation.spearman(measured, estimated);
        double within = share(above.stream().filter(Observation::withinTwice).count(), above.size());
        long agreeing = observations.stream()
                .filter(o -> tiers.tierOf(o.measuredBytes()).equals(tiers.tierOf(o.estimatedBytes())))
                .count();
        return new AccuracyStatistics(observations.size(), above.size(), spearman,
                SpearmanInterval.of(measured, estimated), within, share(agreeing, observations.size()));
    }

    /**
     * One line: {@code Spearman 0.981 (90% interval 0.955-0.993), within 2x 94% of 31 above 1 MiB, tier agreement 97%
     * of 52}; the interval only where there are enough statements above the floor for one.
     */
    public String summary() {
        String interval = Double.isNaN(spearmanInterval.low()) ? ""
                : " (90% interval " + spearmanInterval.describe() + ")";
        return String.format(Locale.ROOT, "Spearman %s%s, within 2x %s of %d above 1 MiB, tier agreement %s of %d",
                Double.isNaN(spearman) ? "n/a" : String.format(Locale.ROOT, "%.3f", spearman), interval,
                percent(withinTwice), aboveFloor, percent(tierAgreement), statements);
    }

    private static double share(long count, int of) {
        return of == 0 ? Double.NaN : (double) count / of;
    }

    private static String percent(double share) {
        return Double.isNaN(share) ? "n/a" : String.format(Locale.ROOT, "%.0f%%", 100 * share);
    }
}
