package io.memogate.proxy.admission;

import io.memogate.estimator.Catalog;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Function;

/**
 * A statement estimated off the session's event loop, once its catalog is there, and then admitted as any
 * other: this admission then speaks for that one. Two kinds of statement take this way:
 * <ul>
 *   <li>one that waits for its database's first catalog read: the first statements after the proxy starts
 *       would otherwise be estimated without the views and indexes (a view over sixteen tables would pass as
 *       one relation), and a prepared statement found to bypass would be remembered so for the session. Once
 *       the read is in (or the caller's bound on the wait has passed, with {@link Catalog#NONE}) it goes on;
 *   <li>a long text, whose estimate takes long enough (a 64 MiB text about a second) to stall every other
 *       session of the event loop: given its catalog at once.
 * </ul>
 *
 * <p>Thread-safe: the estimate runs on the common pool (not on the catalog's thread, whose next read it would
 * delay, nor under this object's lock), withdraw comes from the session's event loop.
 */
final class EstimatedLater implements Admission {

    private final CompletableFuture<AdmittedStatement> decision = new CompletableFuture<>();
    /** The admission once estimated; null before. Guarded by this. */
    private Admission admitted;
    /** The estimate is under way. Guarded by this. */
    private boolean admitting;
    /** A cancel came while the estimate was under way: passed on to the admission it makes. Guarded by this. */
    private boolean withdrawnWhileAdmitting;
    private boolean withdrawn;

    /**
     * @param read the catalog, when it is read or the wait for it is over
     * @param admit the admission of the statement with that catalog
     */
    EstimatedLater(CompletionStage<Catalog> read, Function<Catalog, Admission> admit) {
        this(read, admit, ForkJoinPool.commonPool());
    }

    /** @param estimates where the estimate and the gateways' answer run */
    EstimatedLater(CompletionStage<Catalog> read, Function<Catalog, Admission> admit, Executor estimates) {
        read.whenCompleteAsync((catalog, failure) -> {
            synchronized (this) {
                if (withdrawn) {
                    return;
                }
                admitting = true;
            }
            Admission next;
            try {
                next = admit.apply(failure == null && catalog != null ? catalog : Catalog.NONE);
            } catch (Throwable e) {
                decision.completeExceptionally(e); // the session answers it; it must not wait forever
                return;
            }
            boolean withdrawNow;
            synchronized (this) {
                admitted = next;
                withdrawNow = withdrawnWhileAdmitting;
            }
            if (withdrawNow && !next.withdraw()) {
                // Admitted before the cancel reached it: give the permit back and cancel, as withdraw promised.
                next.decision().thenAccept(statement -> statement.signal(ReleaseSignal.DISCONNECT));
                decision.completeExceptionally(new CancellationException("cancelled while it was estimated"));
                return;
            }
            next.decision().whenComplete((statement, refused) -> {
                if (refused != null) {
                    decision.completeExceptionally(refused);
                } else {
                    decision.complete(statement);
                }
            });
        }, estimates);
    }

    @Override
    public CompletionStage<AdmittedStatement> decision() {
        return decision;
    }

    @Override
    public boolean withdraw() {
        Admission next;
        synchronized (this) {
            if (admitted == null) {
                if (admitting) {
                    // The estimate is under way: its admission will be withdrawn as soon as it exists.
                    withdrawnWhileAdmitting = true;
                    return true;
                }
                withdrawn = true;
                return decision.completeExceptionally(
                        new CancellationException("cancelled while its catalog was read"));
            }
            next = admitted;
        }
        return next.withdraw();
    }

    @Override
    public synchronized boolean bypassed() {
        return admitted != null && admitted.bypassed();
    }

    @Override
    public synchronized Optional<WaitNotice> waiting() {
        return admitted == null ? Optional.empty() : admitted.waiting();
    }
}
