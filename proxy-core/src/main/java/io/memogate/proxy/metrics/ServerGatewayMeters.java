package io.memogate.proxy.metrics;

import io.memogate.broker.Broker;
import io.memogate.broker.probe.MemorySnapshot;
import io.memogate.broker.probe.ServerGateway;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.ToIntFunction;

/**
 * The compile gateways the database server keeps itself (SQL Server's small, medium and big gateways), beside
 * Memogate's own: read from the broker's last good snapshot, never by querying the server at scrape time. Each
 * gauge sums the gateway's resource pools; it is NaN before the first good poll, and on a fleet's follower,
 * whose leader polls.
 */
public final class ServerGatewayMeters implements MeterBinder {

    /** SQL Server's gateways, by the first word of their names ("Small Gateway"). */
    static final List<String> GATEWAYS = List.of("small", "medium", "big");

    private final String server;
    private final Broker broker;

    /** @param server the backend whose broker this is, the {@value Names#SERVER} tag of every meter */
    public ServerGatewayMeters(String server, Broker broker) {
        this.server = Objects.requireNonNull(server, "server");
        this.broker = Objects.requireNonNull(broker, "broker");
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (String gateway : GATEWAYS) {
            gauge(registry, Names.SERVER_GATEWAY_ACTIVE, gateway, ServerGateway::activeCount,
                    "Compiles holding the server's own gateway now");
            gauge(registry, Names.SERVER_GATEWAY_WAITING, gateway, ServerGateway::waiterCount,
                    "Compiles waiting at the server's own gateway now (RESOURCE_SEMAPHORE_QUERY_COMPILE)");
            gauge(registry, Names.SERVER_GATEWAY_LIMIT, gateway, ServerGateway::maxCount,
                    "Concurrent compiles the server's own gateway allows");
        }
    }

    private void gauge(MeterRegistry registry, String name, String gateway, ToIntFunction<ServerGateway> value,
                       String description) {
        Gauge.builder(name, broker, b -> sum(b.state().lastGoodSnapshot(), gateway, value))
                .tag(Names.SERVER, server)
                .tag(Names.GATEWAY, gateway)
                .description(description + ", summed over resource pools (NaN before the first good poll)")
                .register(registry);
    }

    /** The value summed over the pools' gateways of that kind; NaN without a snapshot or such a gateway. */
    static double sum(Optional<MemorySnapshot> snapshot, String gateway, ToIntFunction<ServerGateway> value) {
        List<ServerGateway> matching = snapshot.map(MemorySnapshot::serverGateways).orElse(List.of()).stream()
                .filter(g -> g.name().toLowerCase(Locale.ROOT).startsWith(gateway + " "))
                .toList();
        return matching.isEmpty() ? Double.NaN : matching.stream().mapToInt(value).sum();
    }
}
