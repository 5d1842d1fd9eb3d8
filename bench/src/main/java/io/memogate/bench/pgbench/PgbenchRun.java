package io.memogate.bench.pgbench;

import io.memogate.bench.process.CommandResult;

/** One pgbench run: the exact command, what it printed, and what that means. */
public record PgbenchRun(CommandResult command, PgbenchResult result) {

    public boolean succeeded() {
        return result instanceof PgbenchResult.Succeeded;
    }
}
