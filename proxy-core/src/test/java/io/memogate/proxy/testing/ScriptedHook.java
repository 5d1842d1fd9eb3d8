package io.memogate.proxy.testing;

import io.memogate.proxy.admission.Admission;
import io.memogate.proxy.admission.AdmissionHook;
import io.memogate.proxy.admission.AdmissionRejectedException;
import io.memogate.proxy.admission.AdmittedStatement;
import io.memogate.proxy.admission.ReleaseSignal;
import io.memogate.proxy.admission.StatementRequest;
import io.memogate.proxy.admission.WaitNotice;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An admission hook scripted by the statement's text: {@code /*hold*}{@code /} waits until {@link #admitHeld()}
 * (or a cancel withdraws it), {@code /*refuse*}{@code /} is refused as a gateway would, anything else is
 * admitted at once. Records every request and every release signal. Shared by the wings' admission tests.
 */
public final class ScriptedHook implements AdmissionHook {

    public static final String HOLD = "/*hold*/";
    public static final String REFUSE = "/*refuse*/";

    public final List<StatementRequest> requests = new CopyOnWriteArrayList<>();
    public final List<String> signals = new CopyOnWriteArrayList<>();
    public final List<String> withdrawn = new CopyOnWriteArrayList<>();
    private final List<CompletableFuture<AdmittedStatement>> held = new CopyOnWriteArrayList<>();

    @Override
    public Admission admit(StatementRequest request) {
        requests.add(request);
        String sql = request.sql();
        AdmittedStatement recorded = signal -> signals.add(sql + " " + signal);
        if (sql.contains(REFUSE)) {
            return Admission.of(CompletableFuture.failedFuture(new AdmissionRejectedException(
                    "statement refused: the LARGE gateway's queue is full",
                    "tier LARGE, waited 2.0 s, estimated planner memory 512.0 MiB",
                    "Retry later, or ask an operator to raise admission.tiers.large.queue")));
        }
        if (!sql.contains(HOLD)) {
            return Admission.of(CompletableFuture.completedFuture(recorded));
        }
        CompletableFuture<AdmittedStatement> decision = new CompletableFuture<>();
        held.add(decision);
        return new Admission() {
            @Override
            public CompletionStage<AdmittedStatement> decision() {
                return decision;
            }

            @Override
            public boolean withdraw() {
                boolean wasWaiting = decision.completeExceptionally(new CancellationException("withdrawn"));
                if (wasWaiting) {
                    withdrawn.add(sql);
                }
                return wasWaiting;
            }

            @Override
            public Optional<WaitNotice> waiting() {
                return Optional.of(new WaitNotice("statement queued for the LARGE gateway: position 1", "scripted"));
            }
        };
    }

    /** Admits every statement held so far. */
    public void admitHeld() {
        held.forEach(decision -> decision.complete(signal -> signals.add("held " + signal)));
    }

    public boolean released(String what) {
        return signals.stream().anyMatch(s -> s.startsWith(what) && (s.endsWith(ReleaseSignal.REQUEST_DONE.name())
                || s.endsWith(ReleaseSignal.ERROR.name())));
    }
}
