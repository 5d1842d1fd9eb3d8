package io.memogate.bench.storm.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.bench.storm.load.Attempt;
import io.memogate.bench.storm.load.ConnectionStyle;
import io.memogate.bench.storm.load.ErrorKind;
import io.memogate.bench.storm.load.Failure;
import io.memogate.bench.storm.load.Mode;
import io.memogate.bench.storm.load.Submission;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CellFiguresTest {

    private static final long S = 1_000_000_000L;
    private static final Failure KILLED = new Failure(ErrorKind.SERVER_MEMORY_KILL, "08006", "I/O error");
    private static final Failure RESTART = new Failure(ErrorKind.RESTART, "57P02", "crash of another server process");

    /** Window [100 s, 160 s) in slices of 20 s. */
    private static CellRecord record(List<Attempt> attempts, List<Submission> submissions) {
        return new CellRecord(1, 2, ConnectionStyle.PERSISTENT, Mode.DIRECT, "direct", 100 * S, 160 * S, attempts,
                submissions, 20 * S, List.of(5L, 7L, 6L), 7, 1, 1, 2400, 30_000_000, Optional.empty(), Optional.empty());
    }

    private static Attempt attempt(int client, long submission, int n, long start, long end, Failure failure) {
        return new Attempt(client, submission, n, "t01", start * S, end * S, Optional.ofNullable(failure));
    }

    @Test
    void onlyWhatEndsInTheWindowCountsAndTheSlicesAddUpToTheTotals() {
        CellFigures figures = CellFigures.of(record(
                List.of(attempt(1, 1, 1, 90, 99, null),          // warm-up: not counted
                        attempt(1, 2, 1, 99, 110, KILLED),
                        attempt(1, 2, 2, 111, 125, null),
                        attempt(2, 1, 1, 95, 110, RESTART),
                        attempt(2, 1, 2, 112, 150, null),
                        attempt(2, 2, 1, 150, 170, null)),         // after the window: not counted
                List.of(new Submission(1, 1, "t01", 90 * S, 99 * S, 1, true),
                        new Submission(1, 2, "t01", 99 * S, 125 * S, 2, true),
                        new Submission(2, 1, "t01", 95 * S, 150 * S, 2, true),
                        new Submission(2, 2, "t01", 150 * S, 170 * S, 1, true))));

        assertThat(figures.attempts()).isEqualTo(4);
        assertThat(figures.successes()).isEqualTo(2);
        assertThat(figures.errors()).containsEntry(ErrorKind.SERVER_MEMORY_KILL, 1L).containsEntry(ErrorKind.RESTART, 1L)
                .containsEntry(ErrorKind.GATEWAY_TIMEOUT, 0L).containsEntry(ErrorKind.OTHER, 0L);
        assertThat(figures.completed()).isEqualTo(2);
        assertThat(figures.queriesPerMinute()).isEqualTo(2.0);
        assertThat(figures.successPercent()).isEqualTo(50.0);
        assertThat(figures.p50Seconds()).hasValue(26.0);
        assertThat(figures.p95Seconds()).hasValue(55.0);
        assertThat(figures.slices()).extracting(SliceFigures::attempts).containsExactly(2L, 1L, 1L);
        assertThat(figures.slices()).extracting(SliceFigures::completed).containsExactly(0L, 1L, 1L);
        assertThat(figures.slices()).extracting(SliceFigures::peakBytes).containsExactly(5L, 7L, 6L);
        assertThat(figures.slices().getFirst().reliabilityPercent()).isZero();
    }

    @Test
    void aQueryWhoseRetriesRanOutIsGivenUpAndASliceWithoutAttemptsHasNoReliability() {
        CellFigures figures = CellFigures.of(record(
                List.of(attempt(1, 1, 1, 101, 102, KILLED)),
                List.of(new Submission(1, 1, "t01", 101 * S, 102 * S, 16, false))));

        assertThat(figures.givenUp()).isEqualTo(1);
        assertThat(figures.completed()).isZero();
        assertThat(figures.p50Seconds()).isEmpty();
        assertThat(figures.slices().get(1).reliabilityPercent()).isNaN();
    }
}
