package io.memogate.broker.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class GatewaySettingsTest {

    private static final GatewaySettings DEFAULTS = GatewaySettings.defaults(8);

    @Test
    void defaultsFollowThePaperForTheServersCpus() {
        assertThat(DEFAULTS.staticThresholdBytes()).isEqualTo(1L << 20);
        assertThat(DEFAULTS.small()).isEqualTo(new TierSettings(32, 0.25, 1000, Duration.ofMinutes(2)));
        assertThat(DEFAULTS.medium()).isEqualTo(new TierSettings(8, 0.5, 200, Duration.ofMinutes(4)));
        assertThat(DEFAULTS.large()).isEqualTo(new TierSettings(1, 1.0, 50, Duration.ofMinutes(8)));
    }

    @Test
    void messagesNameTheFieldAndTheValue() {
        assertThatThrownBy(() -> DEFAULTS.with(Tier.MEDIUM, DEFAULTS.medium().withFraction(1.5)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("tiers.medium.fraction must be in (0, 1], was 1.5");
        assertThatThrownBy(() -> DEFAULTS.with(Tier.SMALL, DEFAULTS.small().withFraction(Double.NaN)))
                .hasMessage("tiers.small.fraction must be in (0, 1], was NaN");
        assertThatThrownBy(() -> DEFAULTS.with(Tier.SMALL, DEFAULTS.small().withFraction(0)))
                .hasMessage("tiers.small.fraction must be in (0, 1], was 0.0");
        assertThatThrownBy(() -> DEFAULTS.with(Tier.LARGE, DEFAULTS.large().withLimit(0)))
                .hasMessage("tiers.large.limit must be >= 1, was 0");
        assertThatThrownBy(() -> DEFAULTS.with(Tier.SMALL, DEFAULTS.small().withMaxQueue(-1)))
                .hasMessage("tiers.small.maxQueue must be >= 0, was -1");
        assertThatThrownBy(() -> DEFAULTS.with(Tier.MEDIUM, DEFAULTS.medium().withTimeout(Duration.ZERO)))
                .hasMessage("tiers.medium.timeout must be positive, was PT0S");
        assertThatThrownBy(() -> DEFAULTS.with(Tier.MEDIUM, DEFAULTS.medium().withTimeout(null)))
                .hasMessage("tiers.medium.timeout must be set");
        assertThatThrownBy(() -> DEFAULTS.with(Tier.LARGE, null))
                .hasMessage("tiers.large must be set");
        assertThatThrownBy(() -> DEFAULTS.withStaticThreshold(-1))
                .hasMessage("staticThresholdBytes must be >= 0, was -1");
        assertThatThrownBy(() -> GatewaySettings.defaults(0))
                .hasMessage("cpus must be in [1, 65536], was 0");
    }

    @Test
    void withReplacesOneTierOnly() {
        TierSettings wider = DEFAULTS.medium().withLimit(12);
        GatewaySettings changed = DEFAULTS.with(Tier.MEDIUM, wider).withStaticThreshold(4096);

        assertThat(changed.tier(Tier.MEDIUM)).isEqualTo(wider);
        assertThat(changed.tier(Tier.SMALL)).isEqualTo(DEFAULTS.small());
        assertThat(changed.tier(Tier.LARGE)).isEqualTo(DEFAULTS.large());
        assertThat(changed.staticThresholdBytes()).isEqualTo(4096);
    }
}
