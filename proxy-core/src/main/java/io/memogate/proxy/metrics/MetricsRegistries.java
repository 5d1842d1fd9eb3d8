package io.memogate.proxy.metrics;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.jmx.JmxConfig;
import io.micrometer.jmx.JmxMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * Where meters go: one composite registry that components bind to, feeding a Prometheus registry (read
 * by {@code GET /metrics}) and a JMX registry (MBeans in domain {@value #JMX_DOMAIN}, for jconsole and
 * the monitoring agents DBAs already run). The JVM's meters are bound at construction. Closing
 * unregisters the MBeans, so a proxy stopped and started in one JVM (tests) leaves none behind.
 */
public final class MetricsRegistries implements AutoCloseable {

    public static final String JMX_DOMAIN = "memogate";

    private final PrometheusMeterRegistry prometheus;
    private final CompositeMeterRegistry composite;
    private final JvmMeters jvm = new JvmMeters();

    public MetricsRegistries() {
        // Its own Prometheus collector registry, not the client library's global one.
        prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        composite = new CompositeMeterRegistry(Clock.SYSTEM);
        composite.add(prometheus);
        composite.add(new JmxMeterRegistry(new MemogateJmxConfig(), Clock.SYSTEM));
        jvm.bindTo(composite);
    }

    /** The registry components bind their meters to. */
    public MeterRegistry registry() {
        return composite;
    }

    /** The Prometheus side, for the scrape. */
    public PrometheusMeterRegistry prometheus() {
        return prometheus;
    }

    @Override
    public void close() {
        jvm.close();
        composite.close(); // closes the Prometheus and JMX registries too
    }

    /** Micrometer's JMX defaults, except the domain. */
    private static final class MemogateJmxConfig implements JmxConfig {
        @Override
        public String domain() {
            return JMX_DOMAIN;
        }

        @Override
        public String get(String key) {
            return null; // defaults for the rest
        }
    }
}
