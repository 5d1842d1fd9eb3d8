package io.memogate.bench.targets;

import io.memogate.bench.process.CommandResult;
import io.memogate.bench.process.Commands;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** The first line a tool prints for its version flag, for the report ("PgBouncer 1.18.0"). */
final class ToolVersion {

    private ToolVersion() {
    }

    static String of(Path executable, String flag) throws IOException, InterruptedException {
        CommandResult result = Commands.run(List.of(executable.toString(), flag), Commands.baseEnvironment(),
                Duration.ofSeconds(30));
        String first = result.output().lines().filter(line -> !line.isBlank()).findFirst().orElse("").strip();
        if (result.exitCode() != 0 || first.isEmpty()) {
            throw new IOException(result.commandLine() + " exited with " + result.exitCode() + ": " + result.output().strip());
        }
        return first;
    }
}
