package io.memogate.bench.process;

import java.util.List;

/** A finished command: its exit status and everything it wrote (stdout and stderr interleaved). */
public record CommandResult(List<String> command, int exitCode, String output) {

    public CommandResult {
        command = List.copyOf(command);
    }

    public String commandLine() {
        return String.join(" ", command);
    }
}
