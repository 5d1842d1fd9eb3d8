package io.memogate.proxy.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.netty4.NettyAllocatorMetrics;
import io.micrometer.core.instrument.binder.netty4.NettyEventExecutorMetrics;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.SingleThreadEventExecutor;
import java.time.Duration;
import java.util.Objects;

/**
 * How the event loops keep up. Both legs of a session run on one loop, so whatever holds a loop delays every
 * session on it; {@code memogate_eventloop_lag_seconds} tells that apart from a slow server: a query slow through
 * the proxy while its loop's lag stays near zero waited elsewhere (bench/log/long-queries.md, "The 3 s stall", found
 * the loops idle while the server's processes waited for a CPU). Netty's own meters come from Micrometer's
 * binders: tasks queued per loop ({@code netty_eventexecutor_tasks_pending}) and the buffer allocator's memory
 * ({@code netty_allocator_memory_used}), where results relayed to slow readers are held.
 */
public final class EventLoopMeters implements MeterBinder {

    /**
     * How often each loop is probed: a stall shorter than this may fall between two probes. Fifty wake-ups a
     * second of an idle loop cost nothing measurable; a busy loop runs the probe between reads, without waking.
     */
    static final Duration PROBE_INTERVAL = Duration.ofMillis(20);

    private final EventLoopGroup loops;
    private final Duration interval;

    public EventLoopMeters(EventLoopGroup loops) {
        this(loops, PROBE_INTERVAL);
    }

    EventLoopMeters(EventLoopGroup loops, Duration interval) {
        this.loops = Objects.requireNonNull(loops, "loops");
        this.interval = Objects.requireNonNull(interval, "interval");
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        new NettyEventExecutorMetrics(loops).bindTo(registry);
        if (ByteBufAllocator.DEFAULT instanceof ByteBufAllocatorMetricProvider allocator) {
            new NettyAllocatorMetrics(allocator).bindTo(registry);
        }
        int index = 0;
        for (EventExecutor loop : loops) {
            Timer lag = Timer.builder(Names.EVENT_LOOP_LAG)
                    .description("How late each event loop ran a task due at a known time: how long every "
                            + "session on that loop waited for it")
                    .tag(Names.LOOP, name(loop, index++))
                    .publishPercentileHistogram()
                    .minimumExpectedValue(Duration.ofMillis(1))
                    .maximumExpectedValue(Duration.ofSeconds(10))
                    .register(registry);
            new LoopLagProbe(loop, interval, lag).start();
        }
    }

    /** The loop's thread name, as thread dumps show it and as Netty's executor meters tag it. */
    private static String name(EventExecutor loop, int index) {
        return loop instanceof SingleThreadEventExecutor single ? single.threadProperties().name()
                : "loop-" + index;
    }
}
