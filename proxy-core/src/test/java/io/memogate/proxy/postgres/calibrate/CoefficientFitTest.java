package io.memogate.proxy.postgres.calibrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.memogate.estimator.planner.MemoryTerms;
import io.memogate.estimator.postgres.MemoryCoefficients;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CoefficientFitTest {

    /** Rows made exactly by {@code truth}: the fit must give it back. */
    @Test
    void recoversTheCoefficientsThatMadeTheRows() {
        MemoryCoefficients truth = new MemoryCoefficients(40_000, 3_000, 20_000, 7_000, 24, 1_500, 600, 25_000, 350,
                2_900, 16_000, 30_000, 9_000, 300, 140, 180, 1_300, 4_000,
                4_500, 3_300, 5_600, 270, 6_500);
        List<Measurement> rows = new ArrayList<>();
        for (int i = 1; i <= 30; i++) {
            rows.add(row(truth, new MemoryTerms(1, i * i * 100, i % 3 == 0 ? i * 50 : 0, i + 2, i > 8 ? i * 400 : 0,
                    i % 2 == 0 ? i * 30 : 0, i % 4 == 1 ? i * 70 : 0, 1 + i % 5, 40 * i + (i * i) % 7,
                    i % 4 == 2 ? i * 25 : 0, i % 3 == 0 ? i * i * 3 : 0, i % 5 == 3 ? i * 2 + 1 : 0,
                    i % 3 == 1 ? i * 4 : 0, i % 4 == 3 ? i * i * 50 : 0, i % 5 == 0 ? i * 30 : 0,
                    i % 5 == 0 ? i * 90 + 3 : 0, i % 6 == 4 ? i * 11 : 0, i % 7 == 2 ? i * 64 : 0,
                    i % 8 == 5 ? i * i * 16 : 0, i % 3 == 2 ? i * 9 + 2 : 0, i % 4 == 0 ? i * i * 20 : 0, i % 6 == 1 ? i * i * 7 + 5 : 0, i % 5 == 1 ? i * 7 + 2 : 0, 0, 0)));
        }
        CoefficientFit fit = CoefficientFit.of(rows, MemoryCoefficients.DEFAULTS);

        double[] got = fit.coefficients().toArray();
        double[] want = truth.toArray();
        for (int j = 0; j < want.length; j++) {
            assertThat(got[j]).as(MemoryCoefficients.NAMES.get(j)).isCloseTo(want[j], within(want[j] * 1e-6));
        }
        assertThat(fit.kept()).isEmpty();
    }

    /**
     * Rows where memory falls with relations: unconstrained least squares would give bytesPerRelation a
     * negative value, which would make larger joins look cheaper.
     */
    @Test
    void neverGivesANegativeCoefficient() {
        List<Measurement> rows = new ArrayList<>();
        for (int n = 2; n <= 10; n++) {
            double bytes = 50_000 + 2_000.0 * n * n - 3_000.0 * n;
            rows.add(new Measurement("r" + n, n, n * n, new MemoryTerms(1, n * n, 0, n, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), (long) bytes));
        }
        CoefficientFit fit = CoefficientFit.of(rows, MemoryCoefficients.DEFAULTS);

        assertThat(java.util.Arrays.stream(fit.coefficients().toArray()).min().orElseThrow()).isGreaterThanOrEqualTo(0);
        assertThat(fit.coefficients().bytesPerRelation()).isZero();
        assertThat(fit.coefficients().bytesPerJoinPair()).isBetween(1_500.0, 2_500.0);
    }

    @Test
    void termsNoRowExercisesKeepTheirStartingValue() {
        MemoryCoefficients truth = new MemoryCoefficients(60_000, 2_500, 0, 1_000, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        List<Measurement> rows = new ArrayList<>();
        for (int i = 1; i <= 6; i++) {
            rows.add(row(truth, new MemoryTerms(1, i * 1000, 0, i * i + 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))); // no LIMIT, no GEQO
        }
        MemoryCoefficients start = MemoryCoefficients.DEFAULTS;
        CoefficientFit fit = CoefficientFit.of(rows, start);

        assertThat(fit.kept()).containsExactly("bytesPerFastStartJoinPair", "bytesPerGeqoGene", "bytesPerExtraJoinClause",
                "bytesPerCartesianPair", "bytesPerBlock", "bytesPerToken", "bytesPerParameterizedPair",
                "bytesPerFastStartParameterizedPair", "bytesPerFastStartSubProblemPair", "bytesPerSetOperationBranch",
                "bytesPerListElement", "bytesPerValueRow", "bytesPerValueCell", "bytesPerOtherStatement",
                "bytesPerPartition", "bytesPerPartitionwisePair", "bytesPerCopiedJoinRelation",
                "bytesPerPartitionwiseGrouping", "bytesPerCrossingSquare", "bytesPerJoinRelation");
        assertThat(fit.coefficients().bytesPerFastStartJoinPair()).isEqualTo(start.bytesPerFastStartJoinPair());
        assertThat(fit.coefficients().bytesPerGeqoGene()).isEqualTo(start.bytesPerGeqoGene());
        assertThat(fit.coefficients().bytesPerJoinPair()).isCloseTo(2_500, within(1e-3));
    }

    /** A kept term's share is taken off each row first, so the fitted ones do not absorb it. */
    @Test
    void aKeptTermsShareIsNotFittedIntoTheOthers() {
        MemoryCoefficients start = MemoryCoefficients.DEFAULTS;
        MemoryCoefficients truth = new MemoryCoefficients(30_000, 2_000, start.bytesPerFastStartJoinPair(), 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        List<Measurement> rows = new ArrayList<>();
        for (int i = 1; i <= 6; i++) {
            rows.add(row(truth, new MemoryTerms(1, i * 500, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)));
        }
        rows.add(row(truth, new MemoryTerms(1, 100, 10_000, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))); // one row with LIMIT: not enough support

        CoefficientFit fit = CoefficientFit.of(rows, start);

        assertThat(fit.kept()).contains("bytesPerFastStartJoinPair");
        assertThat(fit.coefficients().bytesPerJoinPair()).isCloseTo(2_000, within(1e-3));
        assertThat(fit.coefficients().fixedBytes()).isCloseTo(30_000, within(1e-2));
    }

    @Test
    void withoutRowsEverythingIsKept() {
        CoefficientFit fit = CoefficientFit.of(List.of(), MemoryCoefficients.DEFAULTS);

        assertThat(fit.coefficients()).isEqualTo(MemoryCoefficients.DEFAULTS);
        assertThat(fit.kept()).isEqualTo(MemoryCoefficients.NAMES);
    }

    private static Measurement row(MemoryCoefficients truth, MemoryTerms terms) {
        return new Measurement("row", (int) terms.relations(), (long) terms.joinPairs(), terms,
                Math.round(terms.bytes(truth)));
    }
}
