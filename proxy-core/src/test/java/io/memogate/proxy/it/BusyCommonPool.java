package io.memogate.proxy.it;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;

/**
 * Every thread of the common pool, where the proxy reads long statement texts, kept busy until closed: a text
 * sent meanwhile stays "being read" for as long as a test needs to look at it or cancel it.
 */
final class BusyCommonPool implements AutoCloseable {

    private final CountDownLatch release = new CountDownLatch(1);

    private BusyCommonPool() {
    }

    /** Returns once every thread of the pool is taken. */
    static BusyCommonPool hold() throws InterruptedException {
        BusyCommonPool hold = new BusyCommonPool();
        int threads = ForkJoinPool.commonPool().getParallelism();
        CountDownLatch busy = new CountDownLatch(threads);
        for (int i = 0; i < threads; i++) {
            ForkJoinPool.commonPool().execute(() -> {
                busy.countDown();
                hold.awaitRelease();
            });
        }
        busy.await();
        return hold;
    }

    private void awaitRelease() {
        try {
            release.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        release.countDown();
    }
}
