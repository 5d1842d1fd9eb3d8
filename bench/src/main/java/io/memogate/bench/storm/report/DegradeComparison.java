package io.memogate.bench.storm.report;

import static io.memogate.bench.storm.report.StormReport.fixed;
import static io.memogate.bench.storm.report.StormReport.seconds;

import io.memogate.bench.storm.load.Mode;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * gateways-degrade against gateways-on, per client count and style: what running the reports that never fit, or
 * that waited too long, under tighter planner settings does to throughput and latency, how many were degraded, and
 * whether the server still never restarted (the storm's requirement for any mode with gateways).
 */
final class DegradeComparison {

    private DegradeComparison() {
    }

    static boolean applies(List<CellFigures> cells) {
        return cells.stream().anyMatch(c -> c.record().mode() == Mode.GATEWAYS_DEGRADE);
    }

    static String markdown(List<CellFigures> cells) {
        StringBuilder out = new StringBuilder("### Degrading instead of queueing\n\n");
        out.append("| clients | connections | mode | queries/min | p95 latency | success % | degraded statements"
                + " | server restarts |\n|---:|---|---|---:|---:|---:|---:|---:|\n");
        for (StormCharts.Group group : StormCharts.Group.of(cells)) {
            for (Mode mode : List.of(Mode.GATEWAYS_ON, Mode.GATEWAYS_DEGRADE)) {
                find(group, mode).ifPresent(cell -> row(out, group, cell));
            }
        }
        out.append("\nDegraded statements: over every statement the gateways decided in the cell, warm-up included"
                + " (the proxy's counter cannot tell the two apart). Requirement: no server restart.\n");
        for (CellFigures cell : cells) {
            if (cell.record().mode() == Mode.GATEWAYS_DEGRADE) {
                out.append("\nSteps the degraded attempts took, ").append(cell.record().clients()).append(' ')
                        .append(cell.record().style().label())
                        .append(" (the clients' NOTICEs, attempts that ended in the window): ")
                        .append(steps(cell.record())).append(".\n");
            }
        }
        return out.toString();
    }

    /** How many attempts in the window each kind of ladder step ran, most first. */
    static String steps(CellRecord record) {
        Map<String, Long> counts = record.attempts().stream()
                .filter(a -> record.inWindow(a.endNanos()) && a.degradedTo().isPresent())
                .collect(Collectors.groupingBy(a -> kind(a.degradedTo().get()), TreeMap::new, Collectors.counting()));
        if (counts.isEmpty()) {
            return "none";
        }
        return counts.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "));
    }

    /** The ladder's kind of step, from the settings a NOTICE names (the later kinds include the earlier's). */
    private static String kind(String settings) {
        if (settings.contains("geqo")) {
            return "GEQO";
        }
        if (settings.contains("collapse_limit")) {
            return "lower collapse limits";
        }
        if (settings.contains("enable_memoize")) {
            return "Memoize off";
        }
        if (settings.contains("enable_partitionwise_join")) {
            return "partitionwise joins off";
        }
        return settings;
    }

    private static void row(StringBuilder out, StormCharts.Group group, CellFigures cell) {
        CellRecord r = cell.record();
        String degraded = r.gateways().map(g -> g.degraded() + " (" + fixed(g.degradedPercent(), 1) + "%)")
                .orElse("-");
        out.append("| ").append(group.clients()).append(" | ").append(group.style().label()).append(" | ")
                .append(r.mode().label()).append(r.failure().isPresent() ? " (FAILED)" : "").append(" | ")
                .append(fixed(cell.queriesPerMinute(), 1)).append(" | ").append(seconds(cell.p95Seconds()))
                .append(" | ").append(fixed(cell.successPercent(), 1)).append(" | ").append(degraded).append(" | ")
                .append(r.restarts()).append(" |\n");
    }

    private static Optional<CellFigures> find(StormCharts.Group group, Mode mode) {
        return group.cells().stream().filter(c -> c.record().mode() == mode).findFirst();
    }
}
