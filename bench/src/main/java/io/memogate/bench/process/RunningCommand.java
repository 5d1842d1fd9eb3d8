package io.memogate.bench.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * A command started with exactly the environment given (nothing inherited, so a PGHOST or PGOPTIONS in the caller's
 * shell cannot change what is measured), stdin closed, whose output (stdout and stderr interleaved) is kept and
 * handed line by line to a listener while it runs, for a caller that acts on what the command reports as it goes.
 * The output is read on another thread: a chatty child must not block on a full pipe while it is waited for.
 */
public final class RunningCommand {

    private final List<String> command;
    private final Process process;
    private final CompletableFuture<String> output;

    private RunningCommand(List<String> command, Process process, CompletableFuture<String> output) {
        this.command = List.copyOf(command);
        this.process = process;
        this.output = output;
    }

    /** Starts {@code command} with exactly {@code environment}, stdin closed, stderr merged into stdout. */
    public static RunningCommand start(List<String> command, Map<String, String> environment, Consumer<String> lines)
            throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().clear();
        builder.environment().putAll(environment);
        Process process = builder.start();
        process.getOutputStream().close();
        CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> readLines(process, lines));
        return new RunningCommand(command, process, output);
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Waits for the command to end, at most {@code timeout}; kills it if it does not. */
    public CommandResult finish(Duration timeout) throws IOException, InterruptedException {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IOException(String.join(" ", command) + " did not finish within " + timeout.toSeconds() + " s");
            }
            return new CommandResult(command, process.exitValue(), output.get(10, TimeUnit.SECONDS));
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("cannot read the output of " + String.join(" ", command), e);
        } finally {
            if (process.isAlive()) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private static String readLines(Process process, Consumer<String> lines) {
        StringBuilder all = new StringBuilder();
        try (BufferedReader reader = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                all.append(line).append('\n');
                lines.accept(line);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return all.toString();
    }
}
