package io.memogate.bench.storm.mariadb;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The storm's light workload: Debian's sysbench 1.0 {@code oltp_point_select} on the demo owner's {@code sbtest}
 * tables, reporting every second ({@code --report-interval=1}) the 95th percentile of that second's latencies.
 * Errors are ignored and counted ({@code --mysql-ignore-errors=all}). sysbench 1.0.20 may crash when its server
 * restarts under it (SIGSEGV after the reconnect); the seconds it reported stay, and it is started again for the
 * time left, so a server restart costs the run its lost statements, not its end.
 */
final class PointSelects {

    static final Path SYSBENCH = Path.of("/usr/bin/sysbench");

    /** "[ 12s ] thds: 2 tps: 2862.86 qps: 2862.86 (r/w/o: ...) lat (ms,95%): 0.99 err/s: 0.00 reconn/s: 0.00" */
    private static final Pattern SECOND = Pattern.compile(
            "^\\[ *\\d+s \\] .* qps: ([0-9.]+) .*lat \\(ms,95%\\): ([0-9.]+) err/s: ([0-9.]+)", Pattern.MULTILINE);

    /**
     * What one run measured.
     *
     * @param p95Millis the queries-weighted median of the seconds' 95th percentiles: a typical second's
     * @param worstSecondP95Millis the highest of them
     * @param crashes times sysbench ended before its time and was started again
     */
    record Figures(double p95Millis, double worstSecondP95Millis, long queries, long errors, int crashes) {}

    /** One second of sysbench's report. */
    private record Second(double qps, double p95Millis, double errorsPerSecond) {}

    private final String user;
    private final String password;
    private final Path log;

    PointSelects(String user, String password, Path log) {
        this.user = user;
        this.password = password;
        this.log = log;
    }

    /** Creates the tables, directly on the server. */
    void prepare(int port) throws IOException, InterruptedException {
        Result prepared = run(command("prepare", port, 1, Duration.ZERO), Duration.ofMinutes(5));
        if (prepared.exitCode() != 0) {
            throw new IOException("sysbench prepare failed (" + prepared.exitCode() + "):\n" + prepared.output());
        }
    }

    Figures run(int port, int threads, Duration duration) throws IOException, InterruptedException {
        Instant end = Instant.now().plus(duration);
        List<Second> seconds = new ArrayList<>();
        int crashes = 0;
        Duration left;
        while ((left = Duration.between(Instant.now(), end)).toSeconds() >= 2) {
            Result result = run(command("run", port, threads, left), left.plusMinutes(2));
            Matcher matcher = SECOND.matcher(result.output());
            while (matcher.find()) {
                seconds.add(new Second(Double.parseDouble(matcher.group(1)), Double.parseDouble(matcher.group(2)),
                        Double.parseDouble(matcher.group(3))));
            }
            if (result.exitCode() != 0) {
                crashes++;
                Thread.sleep(500); // the server may be starting again
            }
        }
        if (seconds.isEmpty()) {
            throw new IOException("sysbench reported no second of point selects; see " + log);
        }
        return new Figures(weightedMedianP95(seconds), seconds.stream().mapToDouble(Second::p95Millis).max().orElseThrow(),
                Math.round(seconds.stream().mapToDouble(Second::qps).sum()),
                Math.round(seconds.stream().mapToDouble(Second::errorsPerSecond).sum()), crashes);
    }

    private static double weightedMedianP95(List<Second> seconds) {
        List<Second> sorted = seconds.stream().sorted(Comparator.comparingDouble(Second::p95Millis)).toList();
        double half = sorted.stream().mapToDouble(Second::qps).sum() / 2;
        double seen = 0;
        for (Second second : sorted) {
            seen += second.qps();
            if (seen >= half) {
                return second.p95Millis();
            }
        }
        return sorted.getLast().p95Millis();
    }

    private List<String> command(String action, int port, int threads, Duration duration) {
        List<String> command = new ArrayList<>(List.of(SYSBENCH.toString(), "oltp_point_select", "--db-driver=mysql",
                "--mysql-host=127.0.0.1", "--mysql-port=" + port, "--mysql-user=" + user, "--mysql-password=" + password,
                "--mysql-db=" + GovernedMariaDb.SYSBENCH_DATABASE, "--tables=1", "--table-size=10000",
                "--threads=" + threads, "--percentile=95", "--mysql-ignore-errors=all", "--report-interval=1"));
        if (!duration.isZero()) {
            command.add("--time=" + duration.toSeconds());
        }
        command.add(action);
        return command;
    }

    private record Result(int exitCode, String output) {}

    private Result run(List<String> command, Duration limit) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] bytes = process.getInputStream().readAllBytes();
        if (!process.waitFor(limit.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
        String output = new String(bytes, StandardCharsets.UTF_8);
        Files.writeString(log, String.join(" ", command) + "\n" + output + "\nexit " + process.exitValue() + "\n",
                StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        return new Result(process.exitValue(), output);
    }
}
