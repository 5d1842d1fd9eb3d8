package io.memogate.proxy.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.Catalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** A statement that waits for its database's first catalog read: estimated once it is in, cancellable before. */
class EstimatedLaterTest {

    private final CompletableFuture<Catalog> read = new CompletableFuture<>();
    private final List<Catalog> estimatedWith = new ArrayList<>();

    private EstimatedLater waiting(Admission then) {
        return new EstimatedLater(read, catalog -> {
            estimatedWith.add(catalog);
            return then;
        }, Runnable::run);
    }

    /** An estimate that throws is an error the session answers, not a statement held for ever. */
    @Test
    void anEstimateThatFailsIsADecisionToo() {
        EstimatedLater admission = new EstimatedLater(read, catalog -> {
            throw new IllegalStateException("estimator broke");
        }, Runnable::run);
        read.complete(Catalog.NONE);
        assertThat(admission.decision().toCompletableFuture()).isCompletedExceptionally();
    }

    @Test
    void theStatementIsAdmittedWithTheCatalogOnceItIsRead() {
        EstimatedLater admission = waiting(Admission.IMMEDIATE);
        assertThat(admission.decision().toCompletableFuture()).isNotDone();
        assertThat(estimatedWith).isEmpty();

        Catalog catalog = Catalog.NONE;
        read.complete(catalog);
        assertThat(estimatedWith).containsExactly(catalog);
        assertThat(admission.decision().toCompletableFuture()).isCompletedWithValue(AdmittedStatement.UNGATED);
        assertThat(admission.withdraw()).as("decided: the cancel goes to the server").isFalse();
    }

    @Test
    void aCancelWhileTheCatalogIsReadEndsTheWaitAndNothingIsEstimated() {
        EstimatedLater admission = waiting(Admission.IMMEDIATE);
        assertThat(admission.withdraw()).isTrue();
        assertThat(admission.decision().toCompletableFuture().isCancelled()).as("answered 57014").isTrue();

        read.complete(Catalog.NONE);
        assertThat(estimatedWith).isEmpty();
    }

    /** A read that fails (or whose wait is over) is no reason to hold the statement: estimated from the SQL. */
    @Test
    void aFailedReadIsEstimatedWithoutACatalog() {
        EstimatedLater admission = waiting(Admission.IMMEDIATE);
        read.completeExceptionally(new IllegalStateException("monitor refused"));
        assertThat(estimatedWith).containsExactly(Catalog.NONE);
        assertThat(admission.decision().toCompletableFuture()).isCompletedWithValue(AdmittedStatement.UNGATED);
    }

    /** A cancel while the estimate runs reaches the admission it makes: the statement is cancelled, nothing held. */
    @Test
    void aCancelWhileTheEstimateRunsCancelsTheStatement() {
        EstimatedLater[] self = new EstimatedLater[1];
        boolean[] released = {false};
        AdmittedStatement permit = new AdmittedStatement() {
            @Override
            public void signal(ReleaseSignal signal) {
                released[0] = true;
            }
        };
        self[0] = new EstimatedLater(read, catalog -> {
            assertThat(self[0].withdraw()).as("cancelled while estimated").isTrue();
            return Admission.of(CompletableFuture.completedFuture(permit)); // admitted at once
        }, Runnable::run);
        read.complete(Catalog.NONE);
        assertThat(self[0].decision().toCompletableFuture().isCancelled()).isTrue();
        assertThat(released[0]).as("the permit given back").isTrue();
    }

    /** Queued in a gateway after the read: the cancel and the notice are the gateway's. */
    @Test
    void afterTheReadTheAdmissionSpeaksForTheGatewaysOne() {
        CompletableFuture<AdmittedStatement> gateway = new CompletableFuture<>();
        boolean[] withdrawn = {false};
        EstimatedLater admission = waiting(new Admission() {
            @Override
            public CompletableFuture<AdmittedStatement> decision() {
                return gateway;
            }

            @Override
            public boolean withdraw() {
                withdrawn[0] = true;
                return gateway.cancel(false);
            }

            @Override
            public Optional<WaitNotice> waiting() {
                return Optional.empty();
            }
        });
        read.complete(Catalog.NONE);
        assertThat(admission.decision().toCompletableFuture()).isNotDone();
        assertThat(admission.withdraw()).isTrue();
        assertThat(withdrawn[0]).isTrue();
        assertThat(admission.decision().toCompletableFuture()).isCompletedExceptionally();
    }
}
