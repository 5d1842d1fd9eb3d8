package io.memogate.proxy.postgres.calibrate;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.estimator.planner.MemoryTerms;
import io.memogate.estimator.postgres.MemoryCoefficients;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CalibrationReportTest {

    /**
     * One statement exercises the join-pair term, yet it is kept: the report says the rule (fewer than
     * two statements), not "no statement exercises them", which that one statement would contradict.
     */
    @Test
    void keptTermsAreExplainedByTheRuleThatKeptThem() {
        Measurement one = new Measurement("mine/q.sql#1", 3, 4,
                new MemoryTerms(1, 4, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), 200_000);
        MemoryCoefficients start = MemoryCoefficients.DEFAULTS;
        CalibrationReport report = new CalibrationReport(new Calibration.Result(List.of(one), List.of(), 0), start,
                CoefficientFit.of(List.of(one), start), StaticTiers.of(GatewaySettings.defaults(1), 256L << 20));
        StringWriter text = new StringWriter();

        report.print(new PrintWriter(text));

        assertThat(text.toString()).contains("\nkept at their starting values (exercised by fewer than 2 measured "
                + "statements, too few to fit): fixedBytes, bytesPerJoinPair, ");
    }

    /**
     * A fit that ranks the large statements worse than the coefficients it started from: the output and the file's
     * header say so, with both figures, rather than leaving it to the user to compare the two lines.
     */
    @Test
    void aFitThatDoesWorseThanItsStartIsSaidSo() {
        List<Measurement> measured = joinsEstimatedRightByTheDefaults();
        double[] relationsOnly = new double[MemoryCoefficients.NAMES.size()];
        relationsOnly[MemoryCoefficients.NAMES.indexOf("bytesPerRelation")] = 400 * 1024;
        CoefficientFit worse = new CoefficientFit(MemoryCoefficients.of(relationsOnly), MemoryCoefficients.NAMES,
                List.of());
        CalibrationReport report = report(measured, worse);
        StringWriter text = new StringWriter();

        report.print(new PrintWriter(text));

        String warning = "warning: the fitted coefficients do worse than the starting ones on the 6 statements above"
                + " 1 MiB (Spearman 1.000 -> -1.000, within 2x 100% -> ";
        assertThat(text.toString()).contains("\n" + warning);
        assertThat(report.header("PostgreSQL 18", "2026-11-29T19:00:00Z")).last().asString().startsWith(warning);
    }

    @Test
    void aFitAsGoodAsItsStartSaysNothingMore() {
        List<Measurement> measured = joinsEstimatedRightByTheDefaults();
        CalibrationReport report = report(measured, CoefficientFit.of(measured, MemoryCoefficients.DEFAULTS));
        StringWriter text = new StringWriter();

        report.print(new PrintWriter(text));

        assertThat(report.warning()).isEmpty();
        assertThat(text.toString()).doesNotContain("warning");
    }

    /** Six joins of ever more pairs over ever fewer relations, each measured at what the defaults estimate. */
    private static List<Measurement> joinsEstimatedRightByTheDefaults() {
        List<Measurement> measured = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            double[] terms = new double[MemoryTerms.NAMES.size()];
            terms[MemoryTerms.NAMES.indexOf("statements")] = 1;
            terms[MemoryTerms.NAMES.indexOf("joinPairs")] = 1_000 * (i + 1) * (i + 1);
            terms[MemoryTerms.NAMES.indexOf("relations")] = 12 - i;
            MemoryTerms t = MemoryTerms.of(terms);
            measured.add(new Measurement("join" + i, 12 - i, (long) t.joinPairs(), t,
                    (long) Math.ceil(t.bytes(MemoryCoefficients.DEFAULTS))));
        }
        return measured;
    }

    private static CalibrationReport report(List<Measurement> measured, CoefficientFit fit) {
        return new CalibrationReport(new Calibration.Result(measured, List.of(), 0), MemoryCoefficients.DEFAULTS, fit,
                StaticTiers.of(GatewaySettings.defaults(1), 256L << 20));
    }
}
