package io.memogate.bench.storm.mariadb;

import io.memogate.bench.storm.mariadb.MariaDbStorm.Cell;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;

/** The MariaDB storm's report.md: the plan, one row per mode, and how to read the columns. */
final class MariaDbStormReport {

    private MariaDbStormReport() {
    }

    static String markdown(MariaDbStormPlan plan, String commandLine, List<Cell> cells) {
        double minutes = plan.measured().toMillis() / 60_000.0;
        StringBuilder md = new StringBuilder()
                .append("# The MariaDB storm, ").append(LocalDate.now(ZoneOffset.UTC)).append("\n\n")
                .append("`").append(commandLine).append("`: ").append(plan.heavyClients()).append(" heavy clients (")
                .append((plan.heavyClients() + 1) / 2).append(" looping over 10-11-table reports under")
                .append(" optimizer_prune_level = 0, ").append(plan.heavyClients() / 2).append(" over IN lists of ")
                .append(plan.inListValues()).append(" values; each statement bounded by max_statement_time = ")
                .append(plan.boundSeconds()).append(" s), beside sysbench oltp_point_select with ")
                .append(plan.pointSelectThreads()).append(" threads; an emulated host of ")
                .append(plan.hostMemoryBytes() >> 20).append(" MiB (the server is killed and restarted when its")
                .append(" private memory exceeds it); quiet baseline ").append(plan.quiet().toSeconds())
                .append(" s, warm-up ").append(plan.warmup().toSeconds()).append(" s, measured ")
                .append(plan.measured().toSeconds()).append(" s per mode.\n\n")
                .append("| mode | reports done/min | reports timed out | IN lists done/min | refused (1317) |")
                .append(" connection failures | server restarts | point-select p95 quiet | p95 in the storm | ratio |")
                .append(" worst second's p95 | point-select errors / sysbench restarts | peak server memory |\n")
                .append("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Cell cell : cells) {
            md.append("| ").append(cell.mode())
                    .append(" | ").append(format(cell.reports()[0] / minutes))
                    .append(" | ").append(cell.reports()[1])
                    .append(" | ").append(format(cell.inLists()[0] / minutes))
                    .append(" | ").append(cell.reports()[2] + cell.inLists()[2])
                    .append(" | ").append(cell.reports()[3] + cell.inLists()[3])
                    .append(" | ").append(cell.restarts())
                    .append(" | ").append(millis(cell.quiet().p95Millis())).append(" ms")
                    .append(" | ").append(millis(cell.storm().p95Millis())).append(" ms")
                    .append(" | ").append(format(cell.storm().p95Millis() / cell.quiet().p95Millis())).append("x")
                    .append(" | ").append(millis(cell.storm().worstSecondP95Millis())).append(" ms")
                    .append(" | ").append(cell.storm().errors()).append(" / ").append(cell.storm().crashes())
                    .append(" | ").append(cell.peakBytes() >> 20).append(" MiB |\n");
        }
        return md.append("\nDone/min counts statements that returned their row while the point selects were measured;")
                .append(" timed out: ended by max_statement_time (ERROR 1969); refused: ERROR 1317 from Memogate's")
                .append(" gateways; connection failures: connections lost to a server restart, and connects refused")
                .append(" while it restarted. p95 is sysbench's 95th percentile")
                .append(" of oltp_point_select latency, per second: the columns give the queries-weighted median of the seconds' p95 and the")
                .append(" worst second's. sysbench 1.0.20 can crash when its server restarts under it; it is then")
                .append(" started again for the time left.\n").toString();
    }

    /** sysbench's latencies have two decimals: a point select takes a fraction of a millisecond. */
    private static String millis(double value) {
        return String.format(Locale.ROOT, "%.2f", value);
    }

    private static String format(double value) {
        return String.format(Locale.ROOT, value >= 100 ? "%.0f" : "%.1f", value);
    }
}
