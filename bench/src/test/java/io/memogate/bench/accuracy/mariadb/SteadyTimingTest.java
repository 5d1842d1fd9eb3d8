package io.memogate.bench.accuracy.mariadb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.proxy.calibrate.mysql.OptimizerProbe;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** A short search is ranked by the median of several EXPLAINs, a long one by its single measurement. */
class SteadyTimingTest {

    /** Hands out the given times in turn, with the arena's mark on the first only, and counts the EXPLAINs. */
    private static final class Scripted implements SteadyTiming.Measurement {
        private final Deque<Double> seconds;
        int taken;

        Scripted(Double... seconds) {
            this.seconds = new ArrayDeque<>(List.of(seconds));
        }

        @Override
        public OptimizerProbe.Measured take() throws SQLException {
            if (seconds.isEmpty()) {
                throw new SQLException("Query execution was interrupted (max_statement_time exceeded)", "70100", 1969);
            }
            taken++;
            return new OptimizerProbe.Measured(seconds.pop(), taken == 1 ? OptionalLong.of(4096) : OptionalLong.of(1));
        }
    }

    @Test
    void aShortSearchKeepsTheMedianOfItsMeasurementsAndTheFirstMemory() throws SQLException {
        Scripted statement = new Scripted(0.0031, 0.0004, 0.0005, 0.0090, 0.0006);

        OptimizerProbe.Measured kept = new SteadyTiming(0.005, 5).measure(statement);

        assertThat(statement.taken).isEqualTo(5);
        assertThat(kept.seconds()).isEqualTo(0.0006);
        assertThat(kept.bytes()).hasValue(4096);
    }

    @Test
    void anEvenNumberOfMeasurementsKeepsTheMiddleTwosMean() throws SQLException {
        OptimizerProbe.Measured kept = new SteadyTiming(0.005, 4).measure(new Scripted(0.001, 0.004, 0.002, 0.003));

        assertThat(kept.seconds()).isEqualTo(0.0025);
    }

    @Test
    void aLongSearchIsMeasuredOnce() throws SQLException {
        Scripted statement = new Scripted(1.7, 0.2);

        OptimizerProbe.Measured kept = new SteadyTiming(0.005, 5).measure(statement);

        assertThat(statement.taken).isOne();
        assertThat(kept.seconds()).isEqualTo(1.7);
    }

    @Test
    void oneMeasurementAskedIsOneTaken() throws SQLException {
        Scripted statement = new Scripted(0.0001, 0.0002);

        assertThat(new SteadyTiming(0.005, 1).measure(statement).seconds()).isEqualTo(0.0001);
        assertThat(statement.taken).isOne();
    }

    @Test
    void aRepeatThatFailsFailsTheStatement() {
        assertThatThrownBy(() -> new SteadyTiming(0.005, 3).measure(new Scripted(0.001, 0.001)))
                .isInstanceOf(SQLException.class).hasMessageContaining("max_statement_time");
    }

    @Test
    void noMeasurementAtAllIsRefused() {
        assertThatThrownBy(() -> new SteadyTiming(0.005, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
