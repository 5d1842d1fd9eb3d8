package io.memogate.proxy.admission;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** Admits every statement at once, holding nothing: the proxy as a plain relay, before gateways exist. */
public final class ImmediateAdmission implements AdmissionHook {

    /** One shared completed future: admission on the hot path allocates nothing (sessions test isDone()). */
    private static final CompletionStage<AdmittedStatement> ADMITTED =
            CompletableFuture.completedFuture(AdmittedStatement.UNGATED);

    @Override
    public CompletionStage<AdmittedStatement> admit(StatementRequest request) {
        return ADMITTED;
    }
}
