package io.memogate.proxy.postgres.calibrate;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.estimator.planner.MemoryTerms;
import io.memogate.estimator.postgres.MemoryCoefficients;
import java.io.PrintWriter;
import java.io.StringWriter;
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
}
