package io.memogate.proxy.admission;

import io.memogate.estimator.Catalog;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * A statement that waits for its database's first catalog read before it is estimated: the first statements
 * after the proxy starts would otherwise be estimated without the views and indexes (a view over sixteen
 * tables would pass as one relation), and a prepared statement found to bypass would be remembered so for
 * the session. Once the read is in (or the caller's bound on the wait has passed, with {@link Catalog#NONE}),
 * the statement is admitted as any other, and this admission then speaks for that one.
 *
 * <p>Thread-safe: the read completes on the catalog's thread, withdraw comes from the session's.
 */
final class AfterCatalogRead implements Admission {

    private final CompletableFuture<AdmittedStatement> decision = new CompletableFuture<>();
    /** The admission once estimated; null before. Guarded by this. */
    private Admission admitted;
    private boolean withdrawn;

    /**
     * @param read the catalog, when it is read or the wait for it is over
     * @param admit the admission of the statement with that catalog
     */
    AfterCatalogRead(CompletionStage<Catalog> read, Function<Catalog, Admission> admit) {
        read.whenComplete((catalog, failure) -> {
            Admission next;
            synchronized (this) {
                if (withdrawn) {
                    return;
                }
                next = admit.apply(failure == null && catalog != null ? catalog : Catalog.NONE);
                admitted = next;
            }
            next.decision().whenComplete((statement, refused) -> {
                if (refused != null) {
                    decision.completeExceptionally(refused);
                } else {
                    decision.complete(statement);
                }
            });
        });
    }

    @Override
    public CompletionStage<AdmittedStatement> decision() {
        return decision;
    }

    @Override
    public synchronized boolean withdraw() {
        if (admitted != null) {
            return admitted.withdraw();
        }
        withdrawn = true;
        return decision.completeExceptionally(new CancellationException("cancelled while its catalog was read"));
    }

    @Override
    public synchronized Optional<WaitNotice> waiting() {
        return admitted == null ? Optional.empty() : admitted.waiting();
    }
}
