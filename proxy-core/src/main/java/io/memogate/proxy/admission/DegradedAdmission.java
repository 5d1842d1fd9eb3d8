package io.memogate.proxy.admission;

import java.util.Optional;
import java.util.concurrent.CompletionStage;

/** An admission of a statement under tighter settings: the gateways' own, which also says which settings. */
record DegradedAdmission(Admission admission, Degraded degradation) implements Admission {

    @Override
    public CompletionStage<AdmittedStatement> decision() {
        return admission.decision();
    }

    @Override
    public boolean withdraw() {
        return admission.withdraw();
    }

    @Override
    public Optional<WaitNotice> waiting() {
        return admission.waiting();
    }

    @Override
    public Optional<Degraded> degraded() {
        return Optional.of(degradation);
    }
}
