package io.memogate.proxy.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.broker.Broker;
import io.memogate.broker.BrokerSettings;
import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.Gateways;
import io.memogate.broker.gateway.LocalGateways;
import io.memogate.broker.probe.MemorySnapshot;
import io.memogate.broker.probe.ServerGateway;
import io.memogate.proxy.metrics.GatewayMeters;
import io.memogate.proxy.metrics.SqlServerSnapshots;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** SHOW BROKER's rows of a SQL Server's own gateways, beside the target they are read against. */
class ServerGatewayRowsTest {

    @Test
    void showBrokerListsTheServersGatewaysAndTheMemoryItGrowsTo() {
        MemorySnapshot polled = SqlServerSnapshots.withGateways(List.of(
                new ServerGateway("Small Gateway", 2, 32, 3, 0, OptionalLong.of(380000)),
                new ServerGateway("Big Gateway", 2, 1, 1, 3, OptionalLong.empty()),
                new ServerGateway("Small Gateway", 256, 32, 0, 0, OptionalLong.of(380000))));
        Gateways gateways = new LocalGateways(GatewaySettings.defaults(2), 1L << 30, System::nanoTime,
                (task, delay) -> () -> { }, new GatewayMeters());
        try (Broker broker = new Broker(BrokerSettings.builder("jdbc:sqlserver://;serverName={db}", "m", "p").build(),
                () -> polled, System::nanoTime, state -> { })) {
            assertThat(AdmissionViews.broker(Optional.of(broker), gateways).value("server_small_gateway")).isNull();
            broker.pollOnce();

            ResultTable table = AdmissionViews.broker(Optional.of(broker), gateways);

            assertThat(table.value("server_small_gateway")).isEqualTo("3 of 32 compiling, 0 waiting, threshold 371 kB");
            assertThat(table.value("server_big_gateway")).isEqualTo("1 of 1 compiling, 3 waiting, threshold none");
            assertThat(table.value("server_small_gateway_pool256")).startsWith("0 of 32 compiling");
            assertThat(table.value("server_memory_target_bytes")).isEqualTo(Long.toString(28L << 30));
        }
    }
}
