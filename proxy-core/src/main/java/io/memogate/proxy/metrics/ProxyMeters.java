package io.memogate.proxy.metrics;

import io.memogate.proxy.session.RecycleCounts;
import io.memogate.proxy.server.ProxyServer;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;

/**
 * The proxy's connections, client side and server side. In session mode the two are equal but for
 * sessions still connecting or being refused; a server count persistently above the client count
 * would be leaked backend connections, and that is why both are shown.
 */
public final class ProxyMeters implements MeterBinder {

    private final ProxyServer server;

    public ProxyMeters(ProxyServer server) {
        this.server = Objects.requireNonNull(server, "server");
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        // Strong references: a gauge's default weak one would read NaN if the caller kept no other.
        Gauge.builder(Names.CLIENT_CONNECTIONS, server, ProxyServer::sessionCount)
                .description("Client connections the proxy is serving (sessions accepted and not yet closed)")
                .baseUnit(BaseUnits.CONNECTIONS)
                .strongReference(true)
                .register(registry);
        Gauge.builder(Names.SERVER_CONNECTIONS, server, ProxyServer::serverConnectionCount)
                .description("Connections from the proxy to backend servers now open")
                .baseUnit(BaseUnits.CONNECTIONS)
                .strongReference(true)
                .register(registry);
        FunctionCounter.builder(Names.SERVER_RECYCLES, server.recycles(), RecycleCounts::recycledCount)
                .description("Replacements of a server connection whose process kept more memory than "
                        + "recycle.retainedAbove, by outcome")
                .tag("outcome", "recycled")
                .register(registry);
        FunctionCounter.builder(Names.SERVER_RECYCLES, server.recycles(), RecycleCounts::failedLoginCount)
                .description("Replacements of a server connection whose process kept more memory than "
                        + "recycle.retainedAbove, by outcome")
                .tag("outcome", "login_failed")
                .register(registry);
    }
}
