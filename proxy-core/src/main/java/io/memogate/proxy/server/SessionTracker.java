package io.memogate.proxy.server;

import io.memogate.proxy.admin.ClientView;
import io.memogate.proxy.admin.ConnectionsView.SessionCommandOutcome;
import io.memogate.proxy.session.OperatorCommand;
import io.memogate.proxy.session.SessionListener;
import io.memogate.proxy.session.TrackedSession;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * The open sessions: enforces limits.maxClientConnections, lets shutdown wait for them to end, and lets
 * the admin console see them.
 */
final class SessionTracker implements SessionListener {

    /** A reload changes it; sessions already open stay even when there are now more than it allows. */
    private int limit;
    private final Set<TrackedSession> open = new HashSet<>();

    SessionTracker(int limit) {
        this.limit = limit;
    }

    @Override
    public synchronized boolean opened(TrackedSession session) {
        if (open.size() >= limit) {
            return false;
        }
        open.add(session);
        return true;
    }

    @Override
    public synchronized void closed(TrackedSession session) {
        if (open.remove(session) && open.isEmpty()) {
            notifyAll();
        }
    }

    synchronized void limit(int limit) {
        this.limit = limit;
    }

    /** Each open session described on its own event loop; sessions that could not say (stopping) are left out. */
    CompletionStage<List<ClientView>> clients() {
        return askEach(session -> session.describe()
                .handle((view, failure) -> Optional.ofNullable(failure == null ? view : null)))
                .thenApply(views -> views.stream().sorted(Comparator.comparing(ClientView::connectedAt)).toList());
    }

    /**
     * {@code command} on the one open session it names, on that session's event loop: what it did. Sessions
     * are found first and nothing is done when none is named or several are (on several backends, whose
     * servers number their processes each on their own): the caller tells the operator.
     */
    CompletionStage<SessionCommandOutcome> operator(OperatorCommand command) {
        OperatorCommand finding = command.finding();
        return askEach(session -> session.operator(finding)
                .thenApply(found -> found.map(backend -> Map.entry(session, backend)))).thenCompose(found -> {
            if (found.size() != 1) {
                List<String> backends = found.stream().map(Map.Entry::getValue).sorted().toList();
                return CompletableFuture.completedFuture(new SessionCommandOutcome(Optional.empty(), backends));
            }
            return found.getFirst().getKey().operator(command).thenApply(done -> new SessionCommandOutcome(done,
                    List.of(found.getFirst().getValue())));
        });
    }

    /** {@code ask} put to every open session at once (each answers on its own event loop): the answers given. */
    private <T> CompletableFuture<List<T>> askEach(Function<TrackedSession, CompletionStage<Optional<T>>> ask) {
        List<TrackedSession> snapshot;
        synchronized (this) {
            snapshot = List.copyOf(open);
        }
        List<CompletableFuture<Optional<T>>> answers = snapshot.stream()
                .map(session -> ask.apply(session).toCompletableFuture()).toList();
        return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenApply(done -> answers.stream()
                .map(CompletableFuture::join)
                .flatMap(Optional::stream)
                .toList());
    }

    synchronized int count() {
        return open.size();
    }

    /** Waits until no session is open; false if some still are after the timeout. */
    synchronized boolean awaitNone(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!open.isEmpty()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            try {
                wait(Math.max(1, left / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return open.isEmpty();
            }
        }
        return true;
    }

    void shutdownAll() {
        List<TrackedSession> remaining;
        synchronized (this) {
            remaining = List.copyOf(open);
        }
        remaining.forEach(TrackedSession::shutdown);
    }
}
