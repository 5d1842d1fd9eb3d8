package io.memogate.bench.storm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.bench.storm.load.ConnectionStyle;
import io.memogate.bench.storm.load.Mode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class StormPlanTest {

    private static StormPlan plan(List<Integer> clients, List<ConnectionStyle> styles, Duration interval) {
        return new StormPlan(clients, styles, List.of(Mode.DIRECT, Mode.GATEWAYS_OFF, Mode.GATEWAYS_ON),
                Duration.ofSeconds(10), Duration.ofSeconds(60), Duration.ofSeconds(15), 6L << 30, interval, 15,
                Duration.ofSeconds(1), 1, Path.of("out"), 64L << 20);
    }

    @Test
    void modesAlternateAndNoModeAlwaysRunsFirst() {
        List<StormPlan.Cell> cells = plan(List.of(30, 35), List.of(ConnectionStyle.NEW, ConnectionStyle.PERSISTENT),
                Duration.ofMillis(25)).cells();

        assertThat(cells).extracting(StormPlan.Cell::label).containsExactly(
                "30-new-direct", "30-new-gateways-off", "30-new-gateways-on",
                "30-persistent-gateways-off", "30-persistent-gateways-on", "30-persistent-direct",
                "35-new-gateways-on", "35-new-direct", "35-new-gateways-off",
                "35-persistent-direct", "35-persistent-gateways-off", "35-persistent-gateways-on");
    }

    @Test
    void aGovernorSlowerThanFiftyMillisecondsIsRefused() {
        assertThatThrownBy(() -> plan(List.of(30), List.of(ConnectionStyle.NEW), Duration.ofMillis(60)))
                .hasMessageContaining("--governor-interval");
    }
}
