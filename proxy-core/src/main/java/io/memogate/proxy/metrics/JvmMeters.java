package io.memogate.proxy.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;

/**
 * The JVM's own meters (heap and direct memory, GC pauses, threads, CPU, uptime), under Micrometer's
 * standard names ({@code jvm_memory_used_bytes}, ...) that existing JVM dashboards expect. All read
 * MXBeans the JVM keeps anyway. Closing detaches the GC notification listener.
 */
final class JvmMeters implements MeterBinder, AutoCloseable {

    private final JvmGcMetrics gc = new JvmGcMetrics();

    @Override
    public void bindTo(MeterRegistry registry) {
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
    }

    @Override
    public void close() {
        gc.close();
    }
}
