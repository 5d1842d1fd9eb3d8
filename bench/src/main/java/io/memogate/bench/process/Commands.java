package io.memogate.bench.process;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/** Runs short-lived commands (pgbench, version queries) to completion, with a bound on how long. */
public final class Commands {

    private Commands() {
    }

    /**
     * Runs {@code command} with exactly {@code environment} (nothing inherited, so a PGHOST or PGOPTIONS
     * in the caller's shell cannot change what is measured), stdin closed.
     */
    public static CommandResult run(List<String> command, Map<String, String> environment, Duration timeout)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().clear();
        builder.environment().putAll(environment);
        Process process = builder.start();
        process.getOutputStream().close();
        // Read on another thread: a chatty child must not block on a full pipe while we wait for it.
        CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> readAll(process.getInputStream()));
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IOException(String.join(" ", command) + " did not finish within " + timeout.toSeconds() + " s");
            }
            return new CommandResult(command, process.exitValue(), output.get(10, TimeUnit.SECONDS));
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IOException("cannot read the output of " + String.join(" ", command), e);
        } finally {
            if (process.isAlive()) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /** The minimal environment for a client tool: PATH and a C locale (pgbench prints numbers with printf). */
    public static Map<String, String> baseEnvironment() {
        String path = System.getenv("PATH");
        return Map.of("PATH", path == null ? "/usr/bin:/bin" : path, "LC_ALL", "C");
    }

    private static String readAll(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
