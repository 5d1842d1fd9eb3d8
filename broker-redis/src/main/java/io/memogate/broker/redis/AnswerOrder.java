package io.memogate.broker.redis;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands each call's answer to its handler on the replies executor in the order the calls were sent, which on
 * one connection is the order Redis ran them. An answer completes on Lettuce's thread, or on the sending thread
 * when it came back before the sender attached to it; handled as it completes, an answer could overtake an
 * earlier one and, say, take a waiting ticket for lost whose grant the earlier answer carries. So each call
 * takes a number as it is sent, and an answer that arrives before an earlier one waits for it. Every call is
 * answered or fails within the command timeout, so none holds the others back for longer.
 */
final class AnswerOrder {

    private static final Logger log = LoggerFactory.getLogger(AnswerOrder.class);

    private final Executor replies;
    /** Guarded by this: numbers are taken and calls written under one lock, so numbers follow the wire. */
    private long sent;
    /** On the replies thread only. */
    private final Map<Long, Runnable> arrived = new HashMap<>();
    private long next;

    AnswerOrder(Executor replies) {
        this.replies = replies;
    }

    /**
     * Sends a call with {@code send} and has {@code handler} told its outcome in order. Returns the outcome
     * itself, for a caller that waits for it (off the replies thread: the handlers run there).
     */
    <T> CompletableFuture<T> send(Supplier<CompletableFuture<T>> send, BiConsumer<T, Throwable> handler) {
        long number;
        CompletableFuture<T> answer;
        synchronized (this) {
            number = sent++;
            try {
                answer = send.get();
            } catch (RuntimeException e) {
                answer = CompletableFuture.failedFuture(e); // the number must still arrive, or none after it would
            }
        }
        answer.whenComplete((value, failure) -> {
            try {
                replies.execute(() -> arrived(number, () -> handler.accept(value, failure)));
            } catch (RejectedExecutionException closing) {
                // The instance is closing: it refuses its waiters and leaves the fleet itself.
            }
        });
        return answer;
    }

    private void arrived(long number, Runnable handler) {
        arrived.put(number, handler);
        Runnable due;
        while ((due = arrived.remove(next)) != null) {
            next++;
            try {
                due.run();
            } catch (RuntimeException e) {
                log.error("Handling an answer of the fleet's Redis failed; the answers after it are handled", e);
            }
        }
    }
}
