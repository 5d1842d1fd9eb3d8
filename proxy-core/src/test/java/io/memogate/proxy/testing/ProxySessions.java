package io.memogate.proxy.testing;

import io.memogate.proxy.server.ProxyServer;
import java.util.concurrent.TimeUnit;

/** Waits on a proxy's sessions as the admin console sees them, for the wings' integration tests. */
public final class ProxySessions {

    private ProxySessions() {
    }

    /** Until a session of {@code server} is in {@code state}, as SHOW CLIENTS says it ("waiting for admission"). */
    public static void awaitSessionIn(ProxyServer server, String state) throws InterruptedException {
        Await.until("a session of the proxy is " + state, () -> server.clients().toCompletableFuture()
                .get(10, TimeUnit.SECONDS).stream().anyMatch(client -> client.state().equals(state)));
    }

    /** Until {@code server} holds {@code count} sessions. */
    public static void awaitSessionCount(ProxyServer server, int count) throws InterruptedException {
        Await.until("the proxy holds " + count + " sessions", () -> server.sessionCount() == count);
    }
}
