package io.memogate.bench.accuracy;

import io.memogate.proxy.cli.ByteSizeConverter;
import io.memogate.estimator.CompileEstimator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * `memogate bench accuracy`: the estimator against PostgreSQL 18's own account of its planner memory,
 * over TPC-H, TPC-DS and the demo warehouse, under PostgreSQL's default planner settings and under wide
 * ones. Writes observations.csv and report.md to --output; exits 0 when the run completed, whatever the
 * figures.
 */
@Command(name = "accuracy", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
                "The estimator's accuracy: plans TPC-H, TPC-DS and the demo warehouse's reports on an embedded"
                        + " PostgreSQL 18 with EXPLAIN (SUMMARY, MEMORY) and compares the estimates.",
                "A memory governor kills any backend whose planning outgrows --host-memory, as the storm's does."})
public final class AccuracyCommand implements Callable<Integer> {

    @Option(names = "--output", defaultValue = "accuracy-report", paramLabel = "DIR",
            description = "Where observations.csv and report.md go (default: ${DEFAULT-VALUE}).")
    Path output;

    @Option(names = "--corpora", split = ",", defaultValue = "synthetic,tpch,tpcds,warehouse",
            paramLabel = "NAME", description = "synthetic, tpch, tpcds, warehouse, random (seeded random joins with outer joins and"
                    + " sub-queries, see --seed), and synthetic-indexed (the synthetic"
                    + " shapes with every join column indexed) (default: ${DEFAULT-VALUE}).")
    List<String> corpora;

    @Option(names = "--seed", split = ",", defaultValue = "1", paramLabel = "N",
            description = "Seed of the random corpus; several, comma-separated, make a corpus each (random-seedN),"
                    + " planned on the same tables and reported apart (default: ${DEFAULT-VALUE}).")
    List<Long> seeds;

    @Option(names = "--random-statements", defaultValue = "150", paramLabel = "N",
            description = "Statements in the random corpus (default: ${DEFAULT-VALUE}).")
    int randomStatements;

    @Option(names = "--profiles", split = ",", defaultValue = "default,wide", paramLabel = "NAME",
            description = "default: PostgreSQL's planner settings; wide: both collapse limits and geqo_threshold"
                    + " at 20; no-memoize and wide-no-memoize: the same with enable_memoize off"
                    + " (default: ${DEFAULT-VALUE}).")
    List<String> profiles;

    @Option(names = "--host-memory", defaultValue = "4GiB", paramLabel = "SIZE",
            converter = ByteSizeConverter.class,
            description = "The emulated host: planning that outgrows it is killed (default: 4GiB).")
    long hostBytes;

    @Option(names = "--max-estimate", paramLabel = "SIZE", converter = ByteSizeConverter.class,
            description = "Statements estimated above this are not planned (default: the host memory).")
    Long maxEstimateBytes;

    @Option(names = "--statement-timeout", defaultValue = "120", paramLabel = "SECONDS",
            description = "statement_timeout for each EXPLAIN (default: ${DEFAULT-VALUE}).")
    long statementTimeoutSeconds;

    @Option(names = "--target", defaultValue = "1GiB", paramLabel = "SIZE",
            converter = ByteSizeConverter.class,
            description = "Compile-memory target the tiers of tier agreement are drawn from (default: 1GiB).")
    long targetBytes;

    @Option(names = "--degrade-target", paramLabel = "SIZE", converter = ByteSizeConverter.class,
            description = "Also degrade each statement estimated above this as the proxy would (admission.degrade),"
                    + " with its ladder and with the ladder without its Memoize step, and measure both.")
    Long degradeTargetBytes;

    @Option(names = "--no-catalog",
            description = "Estimate from the SQL alone, as the proxy does without broker.monitor; by default the"
                    + " estimates read each database's indexes, as the proxy does with one.")
    boolean noCatalog;

    @Override
    public Integer call() throws Exception {
        List<Corpus> selected = new ArrayList<>();
        for (String name : corpora) {
            if (name.equals("random")) {
                selected.addAll(randomCorpora(seeds, randomStatements));
                continue;
            }
            selected.add(switch (name) {
                case "synthetic" -> Corpora.synthetic();
                case "synthetic-indexed" -> Corpora.syntheticIndexed();
                case "tpch" -> Corpora.tpch();
                case "tpcds" -> Corpora.tpcds();
                case "warehouse" -> Corpora.warehouse();
                default -> throw new IllegalArgumentException("unknown corpus " + name
                        + " (synthetic, synthetic-indexed, tpch, tpcds, warehouse, random)");
            });
        }
        List<Profile> chosen = new ArrayList<>();
        for (String name : profiles) {
            chosen.add(Profile.named(name));
        }
        Files.createDirectories(output);
        CompileEstimator estimator = new CompileEstimator();
        AccuracyRun run = new AccuracyRun(hostBytes, maxEstimateBytes == null ? hostBytes : maxEstimateBytes,
                Duration.ofSeconds(statementTimeoutSeconds), estimator, !noCatalog,
                Optional.ofNullable(degradeTargetBytes).map(target -> new DegradeCheck(target, estimator)));
        AccuracyRun.Result result = run.run(selected, chosen, o -> System.out.println(ObservationsCsv.row(o)));
        ObservationsCsv.write(output.resolve("observations.csv"), result.planned());
        String randomOptions = corpora.contains("random") ? String.format(Locale.ROOT, " --seed %s --random-statements %d",
                seeds.stream().map(String::valueOf).collect(Collectors.joining(",")), randomStatements) : "";
        String header = String.format(Locale.ROOT, "`memogate bench accuracy --corpora %s%s --profiles %s --host-memory %d"
                        + " --target %d" + (noCatalog ? " --no-catalog" : "")
                        + (degradeTargetBytes == null ? "" : " --degrade-target " + degradeTargetBytes) + "`, %s UTC, %d CPUs. Planner memory as `EXPLAIN (SUMMARY, MEMORY, COSTS OFF)` reports"
                        + " it (\"Planning: Memory: used\"); profiles: default = PostgreSQL's planner settings, wide ="
                        + " join_collapse_limit = from_collapse_limit = geqo_threshold = 20; the no-memoize ones the"
                        + " same with enable_memoize = off.",
                String.join(",", corpora), randomOptions, String.join(",", profiles), hostBytes, targetBytes,
                LocalDateTime.now(ZoneOffset.UTC).withNano(0), Runtime.getRuntime().availableProcessors());
        new AccuracyReport(result, selected, AccuracyReport.tiersFor(targetBytes), header)
                .write(output.resolve("report.md"));
        System.out.println("wrote " + output.resolve("report.md") + " and observations.csv");
        return 0;
    }

    /** One random corpus per seed: named random alone, random-seedN beside others, so that each is reported apart. */
    static List<Corpus> randomCorpora(List<Long> seeds, int statements) {
        List<Long> distinct = seeds.stream().distinct().toList();
        if (distinct.size() == 1) {
            return List.of(Corpora.random(distinct.get(0), statements));
        }
        return distinct.stream().map(seed -> Corpora.random(seed, statements, Corpora.RANDOM_SEED_PREFIX + seed))
                .toList();
    }
}
