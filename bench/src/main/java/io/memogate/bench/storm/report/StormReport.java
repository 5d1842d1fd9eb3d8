package io.memogate.bench.storm.report;

import io.memogate.bench.storm.load.Attempt;
import io.memogate.bench.storm.load.ErrorKind;
import io.memogate.bench.storm.load.Mode;
import io.memogate.bench.storm.load.Template;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

/**
 * report.md and the CSV files of a storm run. Every figure comes from {@link CellFigures}; the markdown
 * table and summary.csv hold the same numbers, and slices.csv adds up to them.
 */
public final class StormReport {

    /** The storm's goal (gateways-on at 1.35x direct or more, at least 99% success), judged in the report and nowhere else. */
    static final double THROUGHPUT_GOAL = 1.35;
    static final double RELIABILITY_GOAL = 99.0;

    private final RunInfo info;
    private final List<CellFigures> cells;

    public StormReport(RunInfo info, List<CellFigures> cells) {
        this.info = info;
        this.cells = List.copyOf(cells);
    }

    public String markdown(List<String> charts) {
        StringBuilder out = new StringBuilder();
        out.append("# Compile storm\n\n");
        out.append("Command: `").append(info.command()).append("`, started ").append(info.started()).append(".\n\n");
        out.append("## The emulated host\n\n");
        info.emulation().forEach(line -> out.append("- ").append(line).append('\n'));
        out.append("\n## Machine and settings\n\n");
        info.machine().forEach(line -> out.append("- ").append(line).append('\n'));
        info.setup().forEach(line -> out.append("- ").append(line).append('\n'));
        out.append("\n## Results\n\n");
        out.append("Only what ended inside each measured window counts; warm-up is excluded. A query is completed when"
                + " one of its attempts succeeded; success % is successful attempts over all attempts (retries count"
                + " as attempts); latency is from a query's first attempt to its success. Peak memory is the"
                + " server's summed private memory (RssAnon) as the governor sampled it.\n\n");
        out.append(table());
        if (cells.stream().anyMatch(c -> c.record().mode() == Mode.DIRECT)) {
            out.append('\n').append(ratios());
        }
        if (DegradeComparison.applies(cells)) {
            out.append('\n').append(DegradeComparison.markdown(cells));
        }
        if (FleetComparison.applies(cells)) {
            out.append('\n').append(FleetComparison.markdown(cells, info.hostMemoryBytes()));
        }
        out.append('\n').append(details());
        if (cells.stream().anyMatch(c -> !c.otherErrors().isEmpty())) {
            out.append("\n### Errors of kind \"other\"\n\n| cell | SQLSTATE and message | attempts |\n|---|---|---:|\n");
            for (CellFigures cell : cells) {
                cell.otherErrors().forEach((what, count) -> out.append("| ").append(label(cell)).append(" | ")
                        .append(what.replace("|", "\\|")).append(" | ").append(count).append(" |\n"));
            }
        }
        out.append("\n## Charts\n\n");
        for (String chart : charts) {
            out.append("![").append(chart).append("](").append(chart).append(")\n\n");
        }
        out.append("## Templates\n\n| template | what |\n|---|---|\n");
        for (Template template : info.templates()) {
            out.append("| ").append(template.name()).append(" | ").append(template.description()).append(" |\n");
        }
        return out.toString();
    }

    private String table() {
        StringBuilder out = new StringBuilder();
        out.append("| clients | connections | mode | queries/min | success % | queries given up | ");
        for (ErrorKind kind : ErrorKind.values()) {
            out.append(kind.label()).append(" | ");
        }
        out.append("p50 latency | p95 latency | peak server memory | server restarts |\n");
        out.append("|---:|---|---|---:|---:|---:|").append("---:|".repeat(ErrorKind.values().length))
                .append("---:|---:|---:|---:|\n");
        for (CellFigures cell : cells) {
            CellRecord r = cell.record();
            out.append("| ").append(r.clients()).append(" | ").append(r.style().label()).append(" | ")
                    .append(r.mode().label()).append(r.failure().isPresent() ? " (FAILED)" : "").append(" | ")
                    .append(fixed(cell.queriesPerMinute(), 1)).append(" | ").append(fixed(cell.successPercent(), 1))
                    .append(" | ").append(cell.givenUp()).append(" | ");
            for (ErrorKind kind : ErrorKind.values()) {
                out.append(cell.errors().get(kind)).append(" | ");
            }
            out.append(seconds(cell.p50Seconds())).append(" | ").append(seconds(cell.p95Seconds())).append(" | ")
                    .append(gib(r.peakBytes())).append(" | ").append(r.restarts()).append(" |\n");
        }
        return out.toString();
    }

    /** Throughput of each Memogate mode over direct, per client count and style, and the goal. */
    private String ratios() {
        StringBuilder out = new StringBuilder("### Ratios to direct (queries completed per minute)\n\n");
        out.append("| clients | connections | gateways-off / direct | gateways-on / direct | gateways-on: restarts,"
                + " success % | goal (issue 5) |\n|---:|---|---:|---:|---|---|\n");
        for (StormCharts.Group group : StormCharts.Group.of(cells)) {
            Optional<CellFigures> direct = find(group, Mode.DIRECT);
            Optional<CellFigures> off = find(group, Mode.GATEWAYS_OFF);
            Optional<CellFigures> on = find(group, Mode.GATEWAYS_ON);
            out.append("| ").append(group.clients()).append(" | ").append(group.style().label()).append(" | ")
                    .append(ratio(off, direct)).append(" | ").append(ratio(on, direct)).append(" | ")
                    .append(on.map(c -> c.record().restarts() + ", " + fixed(c.successPercent(), 1) + "%").orElse("-"))
                    .append(" | ").append(goal(group.clients(), on, direct)).append(" |\n");
        }
        out.append("\nGoal: gateways-on / direct >= ").append(THROUGHPUT_GOAL).append(" at 30 clients and higher at 35"
                + " and 40 (the higher counts are judged against ").append(THROUGHPUT_GOAL)
                .append(" here), no server restart with gateways on, and >= ").append(RELIABILITY_GOAL)
                .append("% of attempts succeeding with gateways on.\n");
        return out.toString();
    }

    private static String goal(int clients, Optional<CellFigures> on, Optional<CellFigures> direct) {
        if (on.isEmpty() || direct.isEmpty()) {
            return "-";
        }
        double ratio = on.get().queriesPerMinute() / direct.get().queriesPerMinute();
        List<String> missed = new ArrayList<>();
        if (!(ratio >= THROUGHPUT_GOAL)) {
            missed.add("throughput");
        }
        if (on.get().record().restarts() > 0) {
            missed.add("restarts");
        }
        if (!(on.get().successPercent() >= RELIABILITY_GOAL)) {
            missed.add("reliability");
        }
        return missed.isEmpty() ? "met" : "not met (" + String.join(", ", missed) + ")";
    }

    private String details() {
        StringBuilder out = new StringBuilder("### Per cell, in the order run\n\n");
        out.append("| # | cell | target | attempts | governor kills | governor samples, longest gap | gateways:"
                + " admitted, timeouts, queue full, longest wait, connections recycled, degraded |\n|---:|---|---|---:|---:|---|---|\n");
        cells.stream().sorted((a, b) -> Integer.compare(a.record().order(), b.record().order())).forEach(cell -> {
            CellRecord r = cell.record();
            out.append("| ").append(r.order()).append(" | ").append(label(cell)).append(" | ").append(r.target())
                    .append(r.failure().map(f -> " FAILED: " + f).orElse("")).append(" | ").append(cell.attempts())
                    .append(" | ").append(r.kills()).append(" | ").append(r.governorSamples()).append(", ")
                    .append(fixed(r.governorLongestGapNanos() / 1e6, 0)).append(" ms | ")
                    .append(r.gateways().map(g -> g.admitted() + ", " + g.timeouts() + ", " + g.queueFull() + ", "
                            + fixed(g.longestWaitNanos() / 1e9, 1) + " s, " + g.recycled() + ", " + g.degraded())
                            .orElse("-")).append(" |\n");
        });
        return out.toString();
    }

    public String summaryCsv() {
        StringBuilder out = new StringBuilder("order,clients,style,mode,window_s,attempts,successes,completed,given_up,"
                + "queries_per_min,success_pct,"
                + Arrays.stream(ErrorKind.values()).map(k -> k.name().toLowerCase(Locale.ROOT))
                .collect(Collectors.joining(","))
                + ",p50_s,p95_s,peak_bytes,restarts,governor_kills,governor_samples,governor_longest_gap_ms,failure\n");
        for (CellFigures cell : cells) {
            CellRecord r = cell.record();
            out.append(r.order()).append(',').append(r.clients()).append(',').append(r.style().label()).append(',')
                    .append(r.mode().label()).append(',')
                    .append(fixed((r.windowEndNanos() - r.windowStartNanos()) / 1e9, 3)).append(',')
                    .append(cell.attempts()).append(',').append(cell.successes()).append(',').append(cell.completed())
                    .append(',').append(cell.givenUp()).append(',').append(fixed(cell.queriesPerMinute(), 3)).append(',')
                    .append(fixed(cell.successPercent(), 3)).append(',');
            for (ErrorKind kind : ErrorKind.values()) {
                out.append(cell.errors().get(kind)).append(',');
            }
            out.append(csvSeconds(cell.p50Seconds())).append(',').append(csvSeconds(cell.p95Seconds())).append(',')
                    .append(r.peakBytes()).append(',').append(r.restarts()).append(',').append(r.kills()).append(',')
                    .append(r.governorSamples()).append(',').append(fixed(r.governorLongestGapNanos() / 1e6, 1))
                    .append(',').append(r.failure().map(f -> f.replaceAll("[,\\n\\r]", " ")).orElse("")).append('\n');
        }
        return out.toString();
    }

    public String slicesCsv() {
        StringBuilder out = new StringBuilder("clients,style,mode,slice,start_s,end_s,completed,attempts,successes,"
                + "reliability_pct,peak_bytes\n");
        for (CellFigures cell : cells) {
            CellRecord r = cell.record();
            for (SliceFigures s : cell.slices()) {
                out.append(r.clients()).append(',').append(r.style().label()).append(',').append(r.mode().label())
                        .append(',').append(s.index()).append(',').append(fixed(s.startSeconds(), 3)).append(',')
                        .append(fixed(s.endSeconds(), 3)).append(',').append(s.completed()).append(',')
                        .append(s.attempts()).append(',').append(s.successes()).append(',')
                        .append(Double.isNaN(s.reliabilityPercent()) ? "" : fixed(s.reliabilityPercent(), 3))
                        .append(',').append(s.peakBytes()).append('\n');
            }
        }
        return out.toString();
    }

    /** Every attempt that ended in a window, for anyone who wants to recount. */
    public String attemptsCsv() {
        StringBuilder out = new StringBuilder("clients,style,mode,client,submission,attempt,template,start_s,end_s,"
                + "outcome,sqlstate\n");
        for (CellFigures cell : cells) {
            CellRecord r = cell.record();
            for (Attempt a : r.attempts()) {
                if (!r.inWindow(a.endNanos())) {
                    continue;
                }
                out.append(r.clients()).append(',').append(r.style().label()).append(',').append(r.mode().label())
                        .append(',').append(a.client()).append(',').append(a.submission()).append(',')
                        .append(a.attempt()).append(',').append(a.template()).append(',')
                        .append(fixed((a.startNanos() - r.windowStartNanos()) / 1e9, 3)).append(',')
                        .append(fixed((a.endNanos() - r.windowStartNanos()) / 1e9, 3)).append(',')
                        .append(a.failure().map(f -> f.kind().name().toLowerCase(Locale.ROOT)).orElse("ok")).append(',')
                        .append(a.failure().map(f -> String.valueOf(f.sqlState())).orElse("")).append('\n');
            }
        }
        return out.toString();
    }

    /** One line per cell for the console. */
    public String text() {
        StringBuilder out = new StringBuilder();
        for (CellFigures cell : cells) {
            out.append(String.format(Locale.ROOT, "%-28s %7s q/min %6s%% ok  restarts %d  peak %s%n", label(cell),
                    fixed(cell.queriesPerMinute(), 1), fixed(cell.successPercent(), 1), cell.record().restarts(),
                    gib(cell.record().peakBytes())));
        }
        return out.toString();
    }

    private Optional<CellFigures> find(StormCharts.Group group, Mode mode) {
        return group.cells().stream().filter(c -> c.record().mode() == mode).findFirst();
    }

    private static String ratio(Optional<CellFigures> cell, Optional<CellFigures> direct) {
        if (cell.isEmpty() || direct.isEmpty()) {
            return "-";
        }
        if (direct.get().queriesPerMinute() == 0) {
            return cell.get().queriesPerMinute() == 0 ? "- (both 0)" : "- (direct 0)";
        }
        return fixed(cell.get().queriesPerMinute() / direct.get().queriesPerMinute(), 2);
    }

    static String label(CellFigures cell) {
        CellRecord r = cell.record();
        return r.clients() + " " + r.style().label() + " " + r.mode().label();
    }

    static String fixed(double value, int decimals) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%." + decimals + "f", value);
    }

    static String seconds(OptionalDouble value) {
        return value.isPresent() ? fixed(value.getAsDouble(), 1) + " s" : "-";
    }

    private static String csvSeconds(OptionalDouble value) {
        return value.isPresent() ? fixed(value.getAsDouble(), 3) : "";
    }

    static String gib(long bytes) {
        return String.format(Locale.ROOT, "%.2f GiB", bytes / (double) (1L << 30));
    }
}
