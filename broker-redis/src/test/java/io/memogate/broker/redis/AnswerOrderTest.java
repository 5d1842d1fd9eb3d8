package io.memogate.broker.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AnswerOrderTest {

    private final ExecutorService replies = Executors.newSingleThreadExecutor();
    private final AnswerOrder order = new AnswerOrder(replies);
    private final List<String> handled = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        replies.shutdownNow();
    }

    @Test
    void answersThatCompleteOutOfOrderAreHandledInTheOrderTheirCallsWereSent() throws Exception {
        CompletableFuture<String> first = new CompletableFuture<>();
        CompletableFuture<String> second = new CompletableFuture<>();
        CompletableFuture<String> third = new CompletableFuture<>();
        order.send(() -> first, (answer, failure) -> handled.add(answer));
        order.send(() -> second, (answer, failure) -> handled.add(answer));
        order.send(() -> third, (answer, failure) -> handled.add(answer));

        third.complete("third");
        second.complete("second");
        drain();
        assertThat(handled).as("nothing before the first call's answer").isEmpty();

        first.complete("first");
        drain();
        assertThat(handled).containsExactly("first", "second", "third");
    }

    @Test
    void anAnswerThatCameBackBeforeItsCallerLookedIsStillHandledInItsPlace() throws Exception {
        CompletableFuture<String> pending = new CompletableFuture<>();
        order.send(() -> pending, (answer, failure) -> handled.add(answer));
        order.send(() -> CompletableFuture.completedFuture("already"), (answer, failure) -> handled.add(answer));
        drain();
        assertThat(handled).isEmpty();

        pending.complete("pending");
        drain();
        assertThat(handled).containsExactly("pending", "already");
    }

    @Test
    void aFailedCallOrOneThatCouldNotBeSentTakesItsTurnAndLetsTheNextOnesThrough() throws Exception {
        order.send(() -> CompletableFuture.<String>failedFuture(new IllegalStateException("timed out")),
                (answer, failure) -> handled.add("failed: " + failure.getMessage()));
        order.send(() -> {
            throw new IllegalStateException("connection closed");
        }, (answer, failure) -> handled.add("not sent: " + failure.getMessage()));
        order.send(() -> CompletableFuture.completedFuture("next"), (answer, failure) -> handled.add(answer));
        drain();
        assertThat(handled).containsExactly("failed: timed out", "not sent: connection closed", "next");
    }

    @Test
    void aHandlerThatThrowsDoesNotStopTheAnswersAfterIt() throws Exception {
        order.send(() -> CompletableFuture.completedFuture("broken"), (answer, failure) -> {
            throw new IllegalStateException("a bug in a handler");
        });
        order.send(() -> CompletableFuture.completedFuture("after"), (answer, failure) -> handled.add(answer));
        drain();
        assertThat(handled).containsExactly("after");
    }

    /** Waits until the replies thread has run everything submitted to it so far. */
    private void drain() throws Exception {
        replies.submit(() -> { }).get(10, TimeUnit.SECONDS);
    }
}
