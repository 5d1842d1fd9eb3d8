package io.memogate.broker.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class FleetSettingsTest {

    @Test
    void aMistakeNamesTheFieldAndWhatWasWritten() {
        assertThatThrownBy(() -> new FleetSettings("localhost:6379", "prod"))
                .hasMessage("fleet.redis must be a redis:// or rediss:// URI, was 'localhost:6379'");
        assertThatThrownBy(() -> new FleetSettings("redis://r:6379", "prod/eu"))
                .hasMessageStartingWith("fleet.name must be 1 to 64 letters, digits");
        assertThatThrownBy(() -> new FleetSettings("redis://r:6379", "prod", Duration.ofMillis(500),
                Duration.ofMillis(100))).hasMessage("fleet.lease must be at least 1s, was PT0.5S");
        assertThatThrownBy(() -> new FleetSettings("redis://r:6379", "prod", Duration.ofSeconds(2),
                Duration.ofSeconds(2))).hasMessageStartingWith("fleet.pollInterval must be positive and shorter");
    }

    @Test
    void sentinelsNameThePrimaryTheyWatch() {
        assertThat(new FleetSettings("redis-sentinel://s1:26379,s2:26379#gateways", "prod").sentinel()).isTrue();
        assertThat(new FleetSettings("redis://r:6379", "prod").sentinel()).isFalse();
        assertThatThrownBy(() -> new FleetSettings("redis-sentinel://s1:26379", "prod"))
                .hasMessageStartingWith("fleet.sentinel must name the primary the Sentinels watch after '#'");
    }

    @Test
    void aServersKeysShareOneHashTagSoThatAClusterKeepsThemTogether() {
        assertThat(new FleetSettings("redis://r:6379", "prod").keyPrefix("reports"))
                .isEqualTo("memogate:{prod/reports}:");
    }
}
