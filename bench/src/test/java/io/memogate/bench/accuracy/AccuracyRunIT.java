package io.memogate.bench.accuracy;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.CompileEstimator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The accuracy run against a real PostgreSQL 18: what it measures agrees with the estimate where the
 * model is meant to hold, a statement PostgreSQL refuses is recorded and the run goes on, and planning
 * that outgrows the emulated host is killed by the governor, recorded, and followed by the next
 * statement on the reinitialized server.
 */
class AccuracyRunIT {

    /** star12-limit needs about 110 MB under wide settings; this host is smaller. */
    private static final long HOST_BYTES = 64L << 20;

    @Test
    void measuresRecordsRefusalsAndSurvivesAKill(@TempDir Path output) throws Exception {
        List<Corpus.Member> shapes = Corpora.synthetic().statements().stream()
                .filter(m -> List.of("chain8", "star10", "star12-limit", "snowflake11").contains(m.id()))
                .toList();
        Corpus corpus = new Corpus("synthetic", SyntheticDatabase.describe(), Corpora.SYNTHETIC_DATABASE, List.of(),
                List.of(shapes.get(0), shapes.get(1), new Corpus.Member("missing", "SELECT * FROM nowhere n, s1 WHERE"
                        + " n.id = s1.id"), shapes.get(2), shapes.get(3)));

        AccuracyRun.Result result = new AccuracyRun(HOST_BYTES, Long.MAX_VALUE, Duration.ofSeconds(60), new CompileEstimator(), true)
                .run(List.of(corpus), List.of(Profile.WIDE), p -> { });

        Map<String, Planned> byId = result.planned().stream()
                .collect(Collectors.toMap(Planned::id, Function.identity()));
        assertThat(result.serverVersion()).startsWith("PostgreSQL 18");
        assertThat(byId.get("star10").measured()).isTrue();
        assertThat(byId.get("star10").ratio()).as("star10 estimate / measured").isBetween(0.5, 2.0);
        assertThat(byId.get("chain8").measured()).isTrue();
        assertThat(byId.get("missing").outcome()).startsWith("server error 42P01");
        assertThat(byId.get("star12-limit").outcome()).startsWith("killed");
        // The server reinitialized after the kill and the next statement was measured on it.
        assertThat(byId.get("snowflake11").outcome()).isEqualTo(Planned.OK);

        new AccuracyReport(result, List.of(corpus), AccuracyReport.tiersFor(1L << 30), "test run")
                .write(output.resolve("report.md"));
        String report = Files.readString(output.resolve("report.md"));
        assertThat(report).contains("| synthetic | wide | 5 |").contains("| missing | wide | server error 42P01")
                .contains("| star12-limit | wide | killed");
    }

    /**
     * Under a degrade target, a first-rows star over indexed tables (about 60 MiB as it is, under PostgreSQL's
     * defaults) degrades as the proxy would: its ladder turns Memoize off and the star plans within the target
     * with its whole join search, where the ladder without that step falls back to GEQO.
     */
    @Test
    void aStatementAboveTheDegradeTargetIsPlannedUnderEachLaddersChoice(@TempDir Path output) throws Exception {
        Corpus indexed = Corpora.syntheticIndexed();
        Corpus corpus = new Corpus(indexed.name(), indexed.description(), indexed.database(), indexed.setup(),
                indexed.statements().stream().filter(m -> m.id().equals("star10-limit")).toList());
        long target = 32L << 20;
        CompileEstimator estimator = new CompileEstimator();

        AccuracyRun.Result result = new AccuracyRun(1L << 30, Long.MAX_VALUE, Duration.ofSeconds(60), estimator, true,
                Optional.of(new DegradeCheck(target, estimator))).run(List.of(corpus), List.of(Profile.DEFAULT), p -> { });

        assertThat(result.degraded()).singleElement().satisfies(degraded -> {
            assertThat(degraded.planned().measuredBytes()).as("as it is").isGreaterThan(target);
            DegradeCheck.Step ladder = degraded.ladder().orElseThrow();
            assertThat(ladder.settings()).isEqualTo("enable_memoize = off");
            assertThat(ladder.measuredBytes()).as("planned without Memoize").isPositive().isLessThanOrEqualTo(target);
            assertThat(degraded.withoutMemoize().orElseThrow().settings()).startsWith("geqo = on");
        });
        new AccuracyReport(result, List.of(corpus), AccuracyReport.tiersFor(1L << 30), "test run")
                .write(output.resolve("report.md"));
        assertThat(Files.readString(output.resolve("report.md")))
                .contains("| synthetic-indexed | star10-limit | default |")
                .contains("Planned within the target: 1 of 1 with the ladder, 1 without its Memoize step");
    }

    /**
     * Two seeds of the random corpus in one run: the tables are loaded once, and each seed is measured and reported,
     * apart and together.
     */
    @Test
    void severalSeedsShareTheirTablesAndAreReportedApart(@TempDir Path output) throws Exception {
        List<Corpus> corpora = AccuracyCommand.randomCorpora(List.of(1L, 2L), 3);

        AccuracyRun.Result result = new AccuracyRun(1L << 30, Long.MAX_VALUE, Duration.ofSeconds(60),
                new CompileEstimator(), true).run(corpora, List.of(Profile.DEFAULT), p -> { });

        assertThat(result.planned()).hasSize(6).allSatisfy(p -> assertThat(p.outcome()).isEqualTo(Planned.OK));
        assertThat(result.planned()).filteredOn(p -> p.corpus().equals("random-seed1")).hasSize(3);
        assertThat(result.planned()).filteredOn(p -> p.corpus().equals("random-seed2")).hasSize(3);
        new AccuracyReport(result, corpora, AccuracyReport.tiersFor(1L << 30), "test run")
                .write(output.resolve("report.md"));
        assertThat(Files.readString(output.resolve("report.md")))
                .contains("| random-seed1 | default | 3 |").contains("| random-seed2 | default | 3 |")
                .contains("| random, all seeds | default | 6 |");
    }
}
