package io.memogate.bench.targets;

import io.memogate.bench.process.CommandResult;
import io.memogate.bench.process.Commands;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Which build of Memogate a shipped target runs, as the report names it: the checkout's commit, and whether its
 * tracked files differ from it. Two shipped targets in one run (a change and its baseline) are told apart by this.
 */
final class CheckoutRevision {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private CheckoutRevision() {
    }

    /** "43d3e213", "43d3e213 with uncommitted changes", or why the commit is not known. */
    static String of(Path checkout) {
        try {
            CommandResult head = git(checkout, "rev-parse", "--short=8", "HEAD");
            if (head.exitCode() != 0) {
                return "commit unknown: not a git checkout";
            }
            CommandResult changes = git(checkout, "status", "--porcelain", "--untracked-files=no");
            String commit = head.output().strip();
            return changes.exitCode() == 0 && !changes.output().isBlank() ? commit + " with uncommitted changes" : commit;
        } catch (IOException e) {
            return "commit unknown: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "commit unknown: interrupted";
        }
    }

    private static CommandResult git(Path checkout, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("git", "-C", checkout.toString()));
        command.addAll(List.of(arguments));
        return Commands.run(command, Commands.baseEnvironment(), TIMEOUT);
    }
}
