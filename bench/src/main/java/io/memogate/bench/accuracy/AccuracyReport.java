package io.memogate.bench.accuracy;

import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.estimator.CompileEstimate.Parser;
import io.memogate.estimator.postgres.MemoryCoefficients;
import io.memogate.proxy.postgres.calibrate.AccuracyStatistics;
import io.memogate.proxy.postgres.calibrate.CoefficientFit;
import io.memogate.proxy.postgres.calibrate.Observation;
import io.memogate.proxy.postgres.calibrate.StaticTiers;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * report.md: the estimator's accuracy figures (Spearman and share within 2x over statements measured above
 * 1 MiB, the sizes worth gating; tier agreement over all) per corpus and profile with the coefficients the estimator ships, then
 * what calibrating on each corpus alone gives (as {@code memogate calibrate} would on that schema), then
 * every miss and every statement PostgreSQL would not plan.
 */
final class AccuracyReport {

    private final AccuracyRun.Result result;
    private final List<Corpus> corpora;
    private final StaticTiers tiers;
    private final String header;

    AccuracyReport(AccuracyRun.Result result, List<Corpus> corpora, StaticTiers tiers, String header) {
        this.result = result;
        this.corpora = corpora;
        this.tiers = tiers;
        this.header = header;
    }

    /** The idle tiers of Memogate's defaults on a 2-CPU database host under this compile-memory target. */
    static StaticTiers tiersFor(long targetBytes) {
        return StaticTiers.of(GatewaySettings.defaults(2), targetBytes);
    }

    void write(Path file) throws IOException {
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8))) {
            out.println("# Estimator accuracy");
            out.println();
            out.println(header);
            out.println();
            out.printf(Locale.ROOT, "Server: %s. Tiers for tier agreement: t0 %s, t1 %s, t2 %s.%n", result.serverVersion(),
                    mib(tiers.t0()), mib(tiers.t1()), mib(tiers.t2()));
            out.println();
            for (Corpus corpus : corpora) {
                out.printf(Locale.ROOT, "- **%s**: %s; %d statements.%n", corpus.name(), corpus.description(),
                        corpus.statements().size());
            }
            shipped(out);
            calibrated(out);
            misses(out);
            unmeasured(out);
            degraded(out);
        }
    }

    private void shipped(PrintWriter out) {
        out.println();
        out.println("## With the shipped coefficients");
        out.println();
        out.println("Coefficients: " + describe(MemoryCoefficients.DEFAULTS) + ".");
        out.println();
        out.println("| corpus | profile | statements | parsed by Calcite | measured | above 1 MiB | Spearman | Spearman, 90%"
                + " interval | within 2x | tier agreement |");
        out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (Map.Entry<String, Predicate<Planned>> corpus : shippedRows().entrySet()) {
            for (String profile : profiles()) {
                List<Planned> rows = select(p -> corpus.getValue().test(p) && p.profile().equals(profile));
                if (rows.isEmpty()) {
                    continue;
                }
                List<Planned> measured = rows.stream().filter(Planned::measured).toList();
                long planned = rows.stream().filter(p -> !p.estimate().bypass()).count();
                long calcite = rows.stream().filter(p -> !p.estimate().bypass()
                        && p.estimate().parser() == Parser.CALCITE).count();
                AccuracyStatistics s = AccuracyStatistics.of(measured.stream().map(Planned::observation).toList(), tiers);
                out.printf(Locale.ROOT, "| %s | %s | %d | %s | %d | %d | %s | %s | %s | %s |%n", corpus.getKey(),
                        profile, rows.size(), percent(planned == 0 ? Double.NaN : (double) calcite / planned),
                        measured.size(), s.aboveFloor(), decimal(s.spearman()), s.spearmanInterval().describe(),
                        percent(s.withinTwice()), percent(s.tierAgreement()));
            }
        }
    }

    /**
     * The rows of the shipped figures: each corpus, then the random corpus's seeds together when there are several
     * (each seed's cell holds a few dozen statements above 1 MiB, too few to rank finely), then everything.
     */
    private Map<String, Predicate<Planned>> shippedRows() {
        Map<String, Predicate<Planned>> rows = new LinkedHashMap<>();
        for (Corpus corpus : corpora) {
            rows.put(corpus.name(), p -> p.corpus().equals(corpus.name()));
        }
        if (corpora.stream().filter(c -> c.name().startsWith(Corpora.RANDOM_SEED_PREFIX)).count() >= 2) {
            rows.put("random, all seeds", p -> p.corpus().startsWith(Corpora.RANDOM_SEED_PREFIX));
        }
        rows.put("all", p -> true);
        return rows;
    }

    private void calibrated(PrintWriter out) {
        out.println();
        out.println("## Calibrated on each corpus alone");
        out.println();
        out.println("What `memogate calibrate --corpus` on that schema would fit (both profiles' measurements), and"
                + " the figures with it:");
        out.println();
        out.println("| corpus | fitted coefficients | above 1 MiB | Spearman | within 2x | tier agreement |");
        out.println("|---|---|---:|---:|---:|---:|");
        for (Corpus corpus : corpora) {
            List<Planned> measured = select(p -> p.corpus().equals(corpus.name()) && p.measured()
                    && !p.estimate().bypass());
            if (measured.size() < 2) {
                continue;
            }
            CoefficientFit fit = CoefficientFit.of(measured.stream().map(Planned::measurement).toList(),
                    MemoryCoefficients.DEFAULTS);
            List<Observation> refitted = measured.stream()
                    .map(p -> new Observation(p.measuredBytes(), (long) Math.ceil(p.estimate().terms()
                            .bytes(fit.coefficients()))))
                    .toList();
            AccuracyStatistics s = AccuracyStatistics.of(refitted, tiers);
            out.printf(Locale.ROOT, "| %s | %s | %d | %s | %s | %s |%n", corpus.name(), describe(fit.coefficients()),
                    s.aboveFloor(), decimal(s.spearman()), percent(s.withinTwice()), percent(s.tierAgreement()));
        }
    }

    private void misses(PrintWriter out) {
        List<Planned> misses = select(p -> p.measured() && p.measuredBytes() > AccuracyStatistics.FLOOR_BYTES
                && !p.observation().withinTwice());
        out.println();
        out.println("## Statements above 1 MiB estimated outside 2x (shipped coefficients)");
        out.println();
        if (misses.isEmpty()) {
            out.println("None.");
            return;
        }
        out.println("| corpus | statement | profile | measured | estimated | estimate / measured | relations | join pairs |"
                + " of them for first rows |");
        out.println("|---|---|---|---:|---:|---:|---:|---:|---:|");
        for (Planned p : misses) {
            out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s | %.2f | %d | %,d | %,.0f |%n", p.corpus(), p.id(),
                    p.profile(), mib(p.measuredBytes()), mib(p.estimate().estimatedBytes()), p.ratio(),
                    p.estimate().relations(), p.estimate().memoPairs(), p.estimate().terms().fastStartJoinPairs());
        }
    }

    private void unmeasured(PrintWriter out) {
        List<Planned> unmeasured = select(p -> !p.measured());
        out.println();
        out.println("## Not measured");
        out.println();
        if (unmeasured.isEmpty()) {
            out.println("None: PostgreSQL planned every statement.");
            return;
        }
        out.println("| corpus | statement | profile | why |");
        out.println("|---|---|---|---|");
        for (Planned p : unmeasured) {
            out.printf(Locale.ROOT, "| %s | %s | %s | %s |%n", p.corpus(), p.id(), p.profile(),
                    p.outcome().replace('|', '/').replace('\n', ' '));
        }
    }

    /** Under --degrade-target: each ladder's choice for the statements above it, and what they then planned in. */
    private void degraded(PrintWriter out) {
        List<DegradeCheck.Degraded> degraded = result.degraded();
        if (degraded.isEmpty()) {
            return;
        }
        long target = degraded.get(0).targetBytes();
        out.println();
        out.printf(Locale.ROOT, "## Degraded as the proxy would, under a compile-memory target of %s%n", mib(target));
        out.println();
        out.println("Each statement estimated above the target, planned under the first step of the proxy's degrade"
                + " ladder whose estimate fits, and under the first of the same ladder without its Memoize step (none:"
                + " no step fits, and it is admitted alone as it is).");
        out.println();
        out.println("| corpus | statement | profile | as is | ladder | estimated | planned in |"
                + " without the Memoize step | estimated | planned in |");
        out.println("|---|---|---|---:|---|---:|---:|---|---:|---:|");
        for (DegradeCheck.Degraded d : degraded) {
            Planned p = d.planned();
            out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s | %s |%n", p.corpus(), p.id(), p.profile(),
                    mib(p.measuredBytes()), step(d, d.ladder()), step(d, d.withoutMemoize()));
        }
        out.println();
        out.printf(Locale.ROOT, "Planned within the target: %d of %d with the ladder, %d without its Memoize step;"
                        + " planner memory of the %d in all: %s and %s.%n",
                within(degraded, target, DegradeCheck.Degraded::ladder), degraded.size(),
                within(degraded, target, DegradeCheck.Degraded::withoutMemoize), degraded.size(),
                mib(total(degraded, DegradeCheck.Degraded::ladder)),
                mib(total(degraded, DegradeCheck.Degraded::withoutMemoize)));
    }

    private static String step(DegradeCheck.Degraded d, Optional<DegradeCheck.Step> choice) {
        return choice.map(s -> String.format(Locale.ROOT, "%s | %s | %s", s.settings(), mib(s.estimatedBytes()),
                s.measuredBytes() < 0 ? "not planned" : mib(s.measuredBytes()))).orElse("none | - | "
                + mib(d.planned().measuredBytes()));
    }

    private static long within(List<DegradeCheck.Degraded> degraded, long target, Choice choice) {
        return degraded.stream().mapToLong(d -> d.measuredBytes(choice.of(d)))
                .filter(bytes -> bytes >= 0 && bytes <= target).count();
    }

    private static long total(List<DegradeCheck.Degraded> degraded, Choice choice) {
        return degraded.stream().mapToLong(d -> Math.max(0, d.measuredBytes(choice.of(d)))).sum();
    }

    /** One ladder's step for a degraded statement. */
    private interface Choice {
        Optional<DegradeCheck.Step> of(DegradeCheck.Degraded degraded);
    }

    private List<Planned> select(Predicate<Planned> filter) {
        return result.planned().stream().filter(filter).toList();
    }

    private Set<String> profiles() {
        Set<String> profiles = new LinkedHashSet<>();
        result.planned().forEach(p -> profiles.add(p.profile()));
        return profiles;
    }

    static String describe(MemoryCoefficients c) {
        return String.format(Locale.ROOT, "%.1f kB a statement, %.1f kB a block, %.0f B a token, %.2f kB a join pair,"
                        + " %.2f kB a first-rows join pair, %.2f kB a Cartesian pair, %.1f kB a relation, %.0f B a GEQO gene,"
                        + " %.2f kB an extra join clause, %.2f kB a parameterized pair, %.2f kB a first-rows parameterized pair,"
                        + " %.1f kB a first-rows pair holding a sub-problem, %.0f B a crossing square",
                c.fixedBytes() / 1024, c.bytesPerBlock() / 1024, c.bytesPerToken(), c.bytesPerJoinPair() / 1024,
                c.bytesPerFastStartJoinPair() / 1024, c.bytesPerCartesianPair() / 1024, c.bytesPerRelation() / 1024,
                c.bytesPerGeqoGene(), c.bytesPerExtraJoinClause() / 1024, c.bytesPerParameterizedPair() / 1024,
                c.bytesPerFastStartParameterizedPair() / 1024, c.bytesPerFastStartSubProblemPair() / 1024,
                c.bytesPerCrossingSquare());
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
    }

    private static String percent(double share) {
        return Double.isNaN(share) ? "n/a" : String.format(Locale.ROOT, "%.0f%%", 100 * share);
    }

    private static String decimal(double value) {
        return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%.3f", value);
    }
}
