package io.memogate.bench.report;

import io.memogate.bench.pgbench.PgbenchResult;
import io.memogate.bench.pgbench.QueryMode;
import io.memogate.bench.targets.TargetKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Renders a {@link BenchRecord}: as text for the terminal, as Markdown for report.md, and as CSV with
 * one line per run for further analysis. Text and Markdown hold the same tables: per query mode the TPS
 * of every target in every round, its median, its ratio to direct, the relay's CPU per transaction (median,
 * and lowest-highest over the rounds) and the whole machine's; then the comparisons to goals between the targets that were asked for (a skipped
 * one shows as n/a), with the range of the same ratio taken within each round; then, for a goal of
 * being ahead of another relay, what it leaves a relay to spend ({@link Summary#relayBudget}).
 */
public final class ReportWriter {

    private static final String MISSING = "-";

    private final BenchRecord record;
    private final Summary summary;

    public ReportWriter(BenchRecord record) {
        this.record = record;
        this.summary = new Summary(record);
    }

    public String text() {
        StringBuilder out = new StringBuilder();
        for (TargetInfo target : record.targets()) {
            out.append(String.format(Locale.ROOT, "%-16s %s%n", target.kind().label(), target.description()));
        }
        for (QueryMode mode : record.modes()) {
            out.append(System.lineSeparator()).append("query mode ").append(mode.label()).append(" (TPS)")
                    .append(System.lineSeparator()).append(modeTable(mode).text());
            failures(mode).forEach(line -> out.append("  ").append(line).append(System.lineSeparator()));
        }
        Table comparisons = comparisonTable();
        if (!comparisons.isEmpty()) {
            out.append(System.lineSeparator()).append(comparisons.text());
        }
        Table budgets = budgetTable();
        if (!budgets.isEmpty()) {
            out.append(System.lineSeparator()).append(budgets.text());
        }
        return out.toString();
    }

    public String markdown(String title) {
        StringBuilder out = new StringBuilder("# ").append(title).append("\n\n");
        out.append("## What ran\n\n");
        record.settings().forEach(line -> out.append("- ").append(line).append('\n'));
        out.append("\n## Machine\n\n");
        record.machine().forEach(line -> out.append("- ").append(line).append('\n'));
        out.append("\n## Targets\n\n");
        Table targets = new Table(List.of("target", "what ran"), 2);
        record.targets().forEach(t -> targets.row(List.of(t.kind().label(), t.description())));
        out.append(targets.markdown());
        for (QueryMode mode : record.modes()) {
            out.append("\n## Query mode ").append(mode.label()).append(" (TPS)\n\n").append(modeTable(mode).markdown());
            List<String> failures = failures(mode);
            if (!failures.isEmpty()) {
                out.append("\nFailed runs:\n\n");
                failures.forEach(line -> out.append("- ").append(line).append('\n'));
            }
        }
        Table comparisons = comparisonTable();
        if (!comparisons.isEmpty()) {
            out.append("\n## Comparisons (ratio of medians)\n\n").append(comparisons.markdown());
        }
        Table budgets = budgetTable();
        if (!budgets.isEmpty()) {
            out.append("\n## What a goal leaves a relay to spend\n\n")
                    .append("The whole machine's CPU per transaction with the reference relay, divided by the goal,"
                            + " less what pgbench and the server took under the reference (its machine CPU per"
                            + " transaction less its own): the CPU per transaction a relay may spend to reach the"
                            + " goal while the cores are as busy. The reference's own figure follows in brackets;"
                            + " a negative budget means no relay could reach the goal.\n\n")
                    .append(budgets.markdown());
        }
        out.append("\n## Order of the runs\n\n");
        for (int round = 1; round <= record.orders().size(); round++) {
            out.append("- round ").append(round).append(": ").append(String.join(", ", record.orders().get(round - 1)))
                    .append(" (for each mode, in the order ")
                    .append(String.join(", ", record.modes().stream().map(QueryMode::label).toList())).append(")\n");
        }
        return out.toString();
    }

    public String csv() {
        StringBuilder out = new StringBuilder(
                "mode,round,position,target,status,tps,transactions,tps_basis,target_cpu_ms,machine_busy,machine_idle,detail\n");
        for (Measurement m : record.measurements()) {
            List<String> cells = new ArrayList<>(List.of(m.mode().label(), Integer.toString(m.round()),
                    Integer.toString(m.position()), m.target().label()));
            String cpu = m.targetCpu().map(d -> String.format(Locale.ROOT, "%.1f", d.toNanos() / 1e6)).orElse("");
            String busy = m.machine().map(l -> String.format(Locale.ROOT, "%.4f", l.busyShare())).orElse("");
            String idle = m.machine().map(l -> String.format(Locale.ROOT, "%.4f", l.idleShare())).orElse("");
            switch (m.result()) {
                case PgbenchResult.Succeeded ok -> cells.addAll(List.of("ok", String.format(Locale.ROOT, "%.6f", ok.tps()),
                        Long.toString(ok.transactions()), ok.tpsBasis(), cpu, busy, idle, ""));
                case PgbenchResult.Failed failed -> cells.addAll(List.of("failed", "", "", "", cpu, busy, idle, failed.reason()));
            }
            out.append(String.join(",", cells.stream().map(ReportWriter::csvCell).toList())).append('\n');
        }
        return out.toString();
    }

    private Table modeTable(QueryMode mode) {
        List<String> header = new ArrayList<>(List.of("target"));
        for (int round = 1; round <= record.rounds(); round++) {
            header.add("round " + round);
        }
        header.addAll(List.of("median", "ratio to direct", "proxy CPU us/tx", "rounds", "machine CPU us/tx", "idle"));
        Table table = new Table(header);
        for (TargetInfo target : record.targets()) {
            List<String> row = new ArrayList<>(List.of(target.kind().label()));
            for (int round = 1; round <= record.rounds(); round++) {
                row.add(summary.measurement(mode, target.kind(), round).map(ReportWriter::cell).orElse(MISSING));
            }
            if (target.skipped()) {
                row.addAll(List.of("skipped", MISSING, MISSING, MISSING, MISSING, MISSING));
            } else {
                row.add(tps(summary.median(mode, target.kind())));
                row.add(ratio(summary.ratioToDirect(mode, target.kind())));
                row.add(micros(summary.medianCpuPerTransaction(mode, target.kind())));
                row.add(summary.cpuPerTransactionRange(mode, target.kind())
                        .map(range -> String.format(Locale.ROOT, "%.1f-%.1f", range[0], range[1])).orElse(MISSING));
                row.add(micros(summary.medianMachineCpuPerTransaction(mode, target.kind())));
                OptionalDouble idle = summary.medianIdleShare(mode, target.kind());
                row.add(idle.isEmpty() ? MISSING : String.format(Locale.ROOT, "%.0f%%", idle.getAsDouble() * 100));
            }
            table.row(row);
        }
        return table;
    }

    private Table comparisonTable() {
        List<String> header = new ArrayList<>(List.of("comparison"));
        record.modes().forEach(mode -> header.add(mode.label()));
        header.add("goal");
        Table table = new Table(header);
        List<TargetKind> asked = record.targets().stream().map(TargetInfo::kind).toList();
        for (Summary.Comparison goal : Summary.GOALS) {
            if (!asked.contains(goal.numerator()) || !asked.contains(goal.denominator())) {
                continue;
            }
            List<String> row = new ArrayList<>(List.of(goal.label()));
            for (QueryMode mode : record.modes()) {
                OptionalDouble ratio = summary.ratio(mode, goal.numerator(), goal.denominator());
                double[] rounds = summary.roundRatios(mode, goal.numerator(), goal.denominator());
                // Three decimals: 0.947 against 0.95 must not print as "0.95 not met".
                row.add(ratio.isEmpty() ? "n/a" : String.format(Locale.ROOT, "%.3f", ratio.getAsDouble())
                        + (ratio.getAsDouble() >= goal.goal() ? " met" : " not met")
                        + (rounds.length < 2 ? "" : String.format(Locale.ROOT, ", rounds %.3f-%.3f",
                                rounds[0], rounds[rounds.length - 1])));
            }
            row.add(String.format(Locale.ROOT, ">= %.2f", goal.goal()));
            table.row(row);
        }
        return table;
    }

    /** Per goal of being ahead of a reference (goal above 1), what that leaves a relay to spend. */
    private Table budgetTable() {
        List<String> header = new ArrayList<>(List.of("relay CPU us/tx to reach"));
        record.modes().forEach(mode -> header.add(mode.label()));
        Table table = new Table(header);
        List<TargetKind> ran = record.targets().stream().filter(t -> !t.skipped()).map(TargetInfo::kind).toList();
        Summary.GOALS.stream()
                .filter(goal -> goal.goal() > 1 && ran.contains(goal.denominator()) && ran.contains(goal.numerator()))
                .map(goal -> Map.entry(goal.denominator(), goal.goal()))
                .distinct()
                .forEach(goal -> {
                    List<String> row = new ArrayList<>(List.of(String.format(Locale.ROOT, "%.2f x %s",
                            goal.getValue(), goal.getKey().label())));
                    for (QueryMode mode : record.modes()) {
                        OptionalDouble budget = summary.relayBudget(mode, goal.getKey(), goal.getValue());
                        OptionalDouble own = summary.medianCpuPerTransaction(mode, goal.getKey());
                        row.add(budget.isEmpty() ? "n/a" : String.format(Locale.ROOT, "%.1f (%s: %.1f)",
                                budget.getAsDouble(), goal.getKey().label(), own.getAsDouble()));
                    }
                    table.row(row);
                });
        return table;
    }

    private List<String> failures(QueryMode mode) {
        return record.measurements().stream()
                .filter(m -> m.mode() == mode && m.result() instanceof PgbenchResult.Failed)
                .map(m -> "round " + m.round() + ", " + m.target().label() + ": "
                        + ((PgbenchResult.Failed) m.result()).reason())
                .toList();
    }

    private static String cell(Measurement measurement) {
        return switch (measurement.result()) {
            case PgbenchResult.Succeeded ok -> String.format(Locale.ROOT, "%.0f", ok.tps());
            case PgbenchResult.Failed failed -> "FAILED";
        };
    }

    private static String micros(OptionalDouble value) {
        return value.isEmpty() ? MISSING : String.format(Locale.ROOT, "%.1f", value.getAsDouble());
    }

    private static String tps(OptionalDouble value) {
        return value.isEmpty() ? "n/a" : String.format(Locale.ROOT, "%.0f", value.getAsDouble());
    }

    private static String ratio(OptionalDouble value) {
        return value.isEmpty() ? "n/a" : String.format(Locale.ROOT, "%.2f", value.getAsDouble());
    }

    private static String csvCell(String value) {
        return value.contains(",") || value.contains("\"") || value.contains("\n")
                ? "\"" + value.replace("\"", "\"\"") + "\"" : value;
    }
}
