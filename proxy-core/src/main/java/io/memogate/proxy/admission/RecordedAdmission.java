package io.memogate.proxy.admission;

import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * A gated statement's admission whose decision comes after its record was added ({@link StatementRecords}):
 * everything else is the gated admission's own.
 */
final class RecordedAdmission implements Admission {

    private final Admission gated;
    private final CompletionStage<AdmittedStatement> decision;

    RecordedAdmission(Admission gated, CompletionStage<AdmittedStatement> decision) {
        this.gated = gated;
        this.decision = decision;
    }

    @Override
    public CompletionStage<AdmittedStatement> decision() {
        return decision;
    }

    @Override
    public boolean withdraw() {
        return gated.withdraw();
    }

    @Override
    public Optional<WaitNotice> waiting() {
        return gated.waiting();
    }

    @Override
    public Optional<Degraded> degraded() {
        return gated.degraded();
    }
}
