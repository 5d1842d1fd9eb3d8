package io.memogate.proxy.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A client program (psql, pgbench, sysbench, mariadb-slap, tsql) run to its end in a directory of the test's, its
 * output kept.
 */
public final class ClientProgram {

    /** What the program printed (standard output and error, as a user sees them) and its exit code. */
    public record Result(int exitCode, String output) {}

    private ClientProgram() {}

    /**
     * Runs {@code command} with libpq's {@code environment} (PGPASSWORD, PGSSLMODE, ...) added; a connection
     * attempt gives up after 10 seconds, the whole program after 120.
     */
    public static Result run(Path dir, Map<String, String> environment, List<String> command)
            throws IOException, InterruptedException {
        return run(dir, environment, command, "");
    }

    /** The same, with {@code input} on the program's standard input. */
    public static Result run(Path dir, Map<String, String> environment, List<String> command, String input)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        builder.environment().put("PGCONNECT_TIMEOUT", "10");
        builder.environment().putAll(environment);
        Process process = builder.start();
        try (var stdin = process.getOutputStream()) {
            stdin.write(input.getBytes(StandardCharsets.UTF_8));
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(command + " did not finish:\n" + output);
        }
        return new Result(process.exitValue(), output);
    }
}
