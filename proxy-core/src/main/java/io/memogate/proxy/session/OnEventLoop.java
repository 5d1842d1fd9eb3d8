package io.memogate.proxy.session;

import io.netty.channel.EventLoop;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;

/**
 * Work done on a session's own event loop from any thread, so that only the loop reads and writes the
 * session's state: how a {@link TrackedSession} answers the console and the server.
 */
public final class OnEventLoop {

    private OnEventLoop() {
    }

    /** {@code work}'s result, done on {@code loop}; failed when the loop is stopping. */
    public static <T> CompletionStage<T> call(EventLoop loop, Supplier<T> work) {
        CompletableFuture<T> done = new CompletableFuture<>();
        try {
            loop.execute(() -> done.complete(work.get()));
        } catch (RejectedExecutionException stopping) {
            done.completeExceptionally(stopping);
        }
        return done;
    }
}
