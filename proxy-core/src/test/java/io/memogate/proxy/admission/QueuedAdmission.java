package io.memogate.proxy.admission;

import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;

/** For tests: a decision that a withdraw (a cancel, a degrade) can still take back, and that tells where it waits. */
public final class QueuedAdmission implements Admission {

    /** Completed by the test: admitted, or refused. */
    public final CompletableFuture<AdmittedStatement> decision = new CompletableFuture<>();

    @Override
    public CompletableFuture<AdmittedStatement> decision() {
        return decision;
    }

    @Override
    public boolean withdraw() {
        return decision.completeExceptionally(new CancellationException("withdrawn"));
    }

    @Override
    public Optional<WaitNotice> waiting() {
        return decision.isDone() ? Optional.empty()
                : Optional.of(new WaitNotice("statement queued for the LARGE gateway", "wait"));
    }
}
