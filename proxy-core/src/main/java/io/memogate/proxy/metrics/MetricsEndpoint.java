package io.memogate.proxy.metrics;

import io.memogate.proxy.config.AdminHttpConfig;
import io.memogate.proxy.server.ListenException;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The proxy's operations surface for one run: the meter registries (Prometheus and JMX, JVM meters
 * bound) and, when admin.http is enabled, the HTTP endpoint serving them with {@code /health}.
 *
 * <p>Lifecycle, as {@code memogate run} and {@code demo} drive it: {@link #start} before the proxy, so
 * a taken admin port stops the start before any client is accepted; {@link #bind} and
 * {@link #addHealthCheck} as components come up; {@link #markServing} once the proxy listens
 * ({@code /health} is DOWN until then); {@link #markStopping} first thing on shutdown; {@link #close}
 * last.
 */
public final class MetricsEndpoint implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(MetricsEndpoint.class);

    private final MetricsRegistries registries;
    private final ServingState serving;
    private final HealthChecks health;
    private final Optional<AdminHttpServer> http;
    private final List<AutoCloseable> closeables = new ArrayList<>();

    private MetricsEndpoint(MetricsRegistries registries, ServingState serving, HealthChecks health,
                            Optional<AdminHttpServer> http) {
        this.registries = registries;
        this.serving = serving;
        this.health = health;
        this.http = http;
    }

    /**
     * Creates the registries and, if enabled, binds the HTTP endpoint.
     *
     * @throws ListenException naming the address when admin.http cannot be bound
     */
    public static MetricsEndpoint start(AdminHttpConfig config) throws InterruptedException {
        MetricsRegistries registries = new MetricsRegistries();
        ServingState serving = new ServingState();
        HealthChecks health = new HealthChecks();
        health.add(serving);
        Optional<AdminHttpServer> http = Optional.empty();
        if (config.enabled()) {
            try {
                http = Optional.of(AdminHttpServer.start(config.host(), config.port(), registries.prometheus(), health));
            } catch (InterruptedException | RuntimeException e) {
                registries.close();
                throw e;
            }
        } else {
            log.info("admin HTTP disabled (admin.http.enabled: false); metrics on JMX only, domain {}",
                    MetricsRegistries.JMX_DOMAIN);
        }
        return new MetricsEndpoint(registries, serving, health, http);
    }

    /** The registry to bind meters to directly; {@link #bind} is the usual way. */
    public MeterRegistry registry() {
        return registries.registry();
    }

    /**
     * Binds a component's meters. A binder that is also AutoCloseable (it holds listeners or threads)
     * is closed with this endpoint.
     */
    public <B extends MeterBinder> B bind(B binder) {
        binder.bindTo(registries.registry());
        if (binder instanceof AutoCloseable closeable) {
            synchronized (closeables) {
                closeables.add(closeable);
            }
        }
        return binder;
    }

    /** Adds a component's part of {@code /health}. */
    public void addHealthCheck(HealthCheck check) {
        health.add(check);
    }

    /** The proxy listens: {@code /health} turns UP (if every added check is UP). */
    public void markServing() {
        serving.serving();
    }

    /** The proxy is stopping: {@code /health} answers 503 DOWN from now on. */
    public void markStopping() {
        serving.stopping();
    }

    /** Where Prometheus scrapes, when the HTTP endpoint is enabled. */
    public Optional<URI> metricsUrl() {
        return http.map(server -> server.url("/metrics"));
    }

    public Optional<URI> healthUrl() {
        return http.map(server -> server.url("/health"));
    }

    /** The HTTP endpoint, when enabled. */
    public Optional<AdminHttpServer> http() {
        return http;
    }

    @Override
    public void close() {
        markStopping();
        http.ifPresent(AdminHttpServer::close);
        List<AutoCloseable> binders;
        synchronized (closeables) {
            binders = List.copyOf(closeables);
        }
        for (AutoCloseable binder : binders.reversed()) {
            try {
                binder.close();
            } catch (Exception e) {
                log.warn("closing {} failed", binder, e);
            }
        }
        registries.close();
    }
}
