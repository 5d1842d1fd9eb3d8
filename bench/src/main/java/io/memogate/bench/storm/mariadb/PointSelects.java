package io.memogate.bench.storm.mariadb;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The storm's light workload: Debian's sysbench 1.0 {@code oltp_point_select} on the demo owner's {@code sbtest}
 * tables, which reports the latency percentile asked for. Errors are ignored and counted (the connection is
 * opened again), so a server restart costs the run its lost statements, not its end.
 */
final class PointSelects {

    static final Path SYSBENCH = Path.of("/usr/bin/sysbench");

    /** What one run measured. */
    record Figures(double p95Millis, long queries, long errors, long reconnects) {}

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
        run(command("prepare", port, 1, Duration.ZERO), Duration.ofMinutes(5));
    }

    Figures run(int port, int threads, Duration duration) throws IOException, InterruptedException {
        String output = run(command("run", port, threads, duration), duration.plusMinutes(2));
        return new Figures(Double.parseDouble(figure(output, "95th percentile:")), Long.parseLong(figure(output, "total:")),
                Long.parseLong(figure(output, "ignored errors:")), Long.parseLong(figure(output, "reconnects:")));
    }

    private List<String> command(String action, int port, int threads, Duration duration) {
        List<String> command = new ArrayList<>(List.of(SYSBENCH.toString(), "oltp_point_select", "--db-driver=mysql",
                "--mysql-host=127.0.0.1", "--mysql-port=" + port, "--mysql-user=" + user, "--mysql-password=" + password,
                "--mysql-db=" + GovernedMariaDb.SYSBENCH_DATABASE, "--tables=1", "--table-size=10000",
                "--threads=" + threads, "--percentile=95", "--mysql-ignore-errors=all"));
        if (!duration.isZero()) {
            command.add("--time=" + duration.toSeconds());
        }
        command.add(action);
        return command;
    }

    private String run(List<String> command, Duration limit) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] bytes = process.getInputStream().readAllBytes();
        if (!process.waitFor(limit.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        String output = new String(bytes, StandardCharsets.UTF_8);
        Files.writeString(log, String.join(" ", command) + "\n" + output + "\n", StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        if (process.exitValue() != 0) {
            throw new IOException("sysbench failed (" + process.exitValue() + "):\n" + output);
        }
        return output;
    }

    private static String figure(String output, String label) {
        Matcher matcher = Pattern.compile(Pattern.quote(label) + "\\s+([0-9.]+)").matcher(output);
        if (!matcher.find()) {
            throw new IllegalStateException("no '" + label + "' in sysbench's output:\n" + output);
        }
        return matcher.group(1);
    }
}
