package io.memogate.bench.pgbench;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * pgbench's progress reports ({@code -P 1 --progress-timestamp}) as a count of transactions over wall-clock time,
 * so that a reading taken at some instant of a run (a process's CPU time, its counters) can be divided by the
 * transactions pgbench finished between two such instants. pgbench 15 prints, for all its threads together, once
 * per interval (pgbench.c, printProgressReport):
 * <pre>
 * progress: 1764342001.004 s, 8713.2 tps, lat 1.833 ms stddev 0.671, 0 failed
 * </pre>
 * where the time is the report's, in seconds since the Unix epoch, and the rate is the transactions finished since
 * the report before divided by the time since it. The first report's interval begins when all clients have
 * connected, an instant it does not print: transactions are counted from the first report on, and linearly within
 * each interval (the rate is all pgbench says about it).
 */
public final class PgbenchProgress {

    private static final Pattern REPORT = Pattern.compile(
            "^progress: ([0-9]+\\.[0-9]+) s, ([0-9]+(?:\\.[0-9]+)?) tps,");

    /** Each report's time in microseconds since the epoch, increasing. */
    private final double[] micros;
    /** Transactions finished between the first report and each report. */
    private final double[] transactions;

    private PgbenchProgress(double[] micros, double[] transactions) {
        this.micros = micros;
        this.transactions = transactions;
    }

    /** Whether {@code line} is a progress report with a timestamp. */
    public static boolean isReport(String line) {
        return REPORT.matcher(line).lookingAt();
    }

    /** The reports in {@code output}, whatever else it holds (the summary, errors). */
    public static PgbenchProgress parse(String output) {
        List<double[]> reports = new ArrayList<>();
        for (String line : output.split("\n")) {
            Matcher matcher = REPORT.matcher(line);
            if (matcher.lookingAt()) {
                reports.add(new double[] {Double.parseDouble(matcher.group(1)) * 1e6, Double.parseDouble(matcher.group(2))});
            }
        }
        double[] micros = new double[reports.size()];
        double[] transactions = new double[reports.size()];
        for (int i = 0; i < reports.size(); i++) {
            micros[i] = reports.get(i)[0];
            if (i > 0) {
                if (micros[i] <= micros[i - 1]) {
                    throw new IllegalArgumentException("pgbench's progress reports go back in time at report " + (i + 1));
                }
                transactions[i] = transactions[i - 1] + reports.get(i)[1] * (micros[i] - micros[i - 1]) / 1e6;
            }
        }
        return new PgbenchProgress(micros, transactions);
    }

    public int reports() {
        return micros.length;
    }

    /** When pgbench first reported: all its clients had connected by then. Empty without reports. */
    public java.util.Optional<Instant> firstReport() {
        if (micros.length == 0) {
            return java.util.Optional.empty();
        }
        long at = Math.round(micros[0]);
        return java.util.Optional.of(Instant.ofEpochSecond(at / 1_000_000, at % 1_000_000 * 1000));
    }

    /**
     * The transactions pgbench finished between {@code from} and {@code to}; empty when either lies outside the
     * reports (before the first or after the last), where the count is not known.
     */
    public OptionalDouble transactionsBetween(Instant from, Instant to) {
        OptionalDouble start = transactionsAt(from);
        OptionalDouble end = transactionsAt(to);
        return start.isEmpty() || end.isEmpty() ? OptionalDouble.empty()
                : OptionalDouble.of(end.getAsDouble() - start.getAsDouble());
    }

    private OptionalDouble transactionsAt(Instant at) {
        double t = at.getEpochSecond() * 1e6 + at.getNano() / 1e3;
        if (micros.length < 2 || t < micros[0] || t > micros[micros.length - 1]) {
            return OptionalDouble.empty();
        }
        int after = 1;
        while (micros[after] < t) {
            after++;
        }
        double share = (t - micros[after - 1]) / (micros[after] - micros[after - 1]);
        return OptionalDouble.of(transactions[after - 1] + share * (transactions[after] - transactions[after - 1]));
    }
}
