package io.memogate.bench.storm.report;

import static io.memogate.bench.storm.report.StormReport.fixed;
import static io.memogate.bench.storm.report.StormReport.gib;

import io.memogate.bench.storm.load.Mode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Several instances sharing their gateways (fleet) against as many with their own (gateways-on), per client
 * count and style: whether the instances protect the server together as one does. The limit is the emulated
 * host's memory, which the governor enforces by killing the largest backend; a cell kept the server within it
 * when the governor never had to kill and no sample exceeded it.
 */
final class FleetComparison {

    private FleetComparison() {
    }

    static boolean applies(List<CellFigures> cells) {
        return cells.stream().anyMatch(c -> c.record().mode() == Mode.FLEET);
    }

    static String markdown(List<CellFigures> cells, long hostMemoryBytes) {
        StringBuilder out = new StringBuilder("### Shared gateways against independent instances\n\n");
        out.append("| clients | connections | instances' gateways | queries completed | success % | peak server memory"
                + " | of the host's " + gib(hostMemoryBytes) + " | governor kills | server restarts |\n"
                + "|---:|---|---|---:|---:|---:|---:|---:|---:|\n");
        List<String> verdicts = new ArrayList<>();
        for (StormCharts.Group group : StormCharts.Group.of(cells)) {
            Optional<CellFigures> shared = find(group, Mode.FLEET);
            Optional<CellFigures> own = find(group, Mode.GATEWAYS_ON);
            own.ifPresent(cell -> row(out, group, "each its own (gateways-on)", cell, hostMemoryBytes));
            shared.ifPresent(cell -> row(out, group, "one set through Redis (fleet)", cell, hostMemoryBytes));
            if (shared.isPresent() && own.isPresent()) {
                verdicts.add(group.clients() + " " + group.style().label() + ": " + verdict(shared.get(), own.get(),
                        hostMemoryBytes));
            }
        }
        if (!verdicts.isEmpty()) {
            out.append("\nGoal: sharing instances keep the server within the host's memory with no restart, where"
                    + " independent ones exceed it.\n\n");
            verdicts.forEach(v -> out.append("- ").append(v).append('\n'));
        }
        return out.toString();
    }

    private static void row(StringBuilder out, StormCharts.Group group, String gateways, CellFigures cell,
                            long hostMemoryBytes) {
        CellRecord r = cell.record();
        out.append("| ").append(group.clients()).append(" | ").append(group.style().label()).append(" | ")
                .append(gateways).append(r.failure().isPresent() ? " (FAILED)" : "").append(" | ")
                .append(cell.completed()).append(" | ").append(fixed(cell.successPercent(), 1)).append(" | ")
                .append(gib(r.peakBytes())).append(" | ")
                .append(fixed(100.0 * r.peakBytes() / hostMemoryBytes, 0)).append("% | ")
                .append(r.kills()).append(" | ").append(r.restarts()).append(" |\n");
    }

    /** Whether the server stayed within the host: no kill, no restart, no sample above the limit. */
    static boolean within(CellFigures cell, long hostMemoryBytes) {
        CellRecord r = cell.record();
        return r.failure().isEmpty() && r.kills() == 0 && r.restarts() == 0 && r.peakBytes() <= hostMemoryBytes;
    }

    static String verdict(CellFigures shared, CellFigures own, long hostMemoryBytes) {
        boolean sharedWithin = within(shared, hostMemoryBytes);
        boolean ownWithin = within(own, hostMemoryBytes);
        if (sharedWithin && !ownWithin) {
            return "met: shared within the host, independent exceeded it";
        }
        if (sharedWithin) {
            return "not shown: both stayed within the host (a heavier storm is needed to tell them apart)";
        }
        return "not met: the server exceeded the host with shared gateways";
    }

    private static Optional<CellFigures> find(StormCharts.Group group, Mode mode) {
        return group.cells().stream().filter(c -> c.record().mode() == mode).findFirst();
    }
}
