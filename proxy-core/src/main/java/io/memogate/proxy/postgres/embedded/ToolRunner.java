package io.memogate.proxy.postgres.embedded;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs one of the bundle's command-line tools (initdb, pg_ctl) to completion as the server account,
 * appending its output to the instance log so that {@code logFile()} tells the whole story.
 */
final class ToolRunner {

    private final ServerAccount account;
    private final Path logFile;

    ToolRunner(ServerAccount account, Path logFile) {
        this.account = account;
        this.logFile = logFile;
    }

    /** Runs {@code command}; a non-zero exit or a timeout throws with the tool's output. */
    void run(List<String> command, Duration timeout) {
        long logStart = LogTail.sizeOf(logFile);
        int exit = runForExitCode(command, timeout);
        if (exit != 0) {
            throw new EmbeddedPostgresException(name(command) + " exited with " + exit + ":\n"
                    + LogTail.read(logFile, logStart, LogTail.DEFAULT_LINES));
        }
    }

    /** Runs {@code command} and returns its exit code; only a timeout or a launch failure throws. */
    int runForExitCode(List<String> command, Duration timeout) {
        long logStart = LogTail.sizeOf(logFile);
        ProcessBuilder builder = new ProcessBuilder(account.command(command))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new EmbeddedPostgresException("cannot run " + name(command) + " as " + account.describe(), e);
        }
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new EmbeddedPostgresException(name(command) + " did not finish within " + timeout + ":\n"
                        + LogTail.read(logFile, logStart, LogTail.DEFAULT_LINES));
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new EmbeddedPostgresException("interrupted while waiting for " + name(command), e);
        }
        return process.exitValue();
    }

    private static String name(List<String> command) {
        return Path.of(command.getFirst()).getFileName().toString();
    }
}
