package io.memogate.proxy.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.broker.gateway.Tier;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class SearchTiersTest {

    @Test
    void eachTierFromItsTime() {
        SearchTiers tiers = SearchTiers.DEFAULTS;
        assertThat(tiers.floor(0)).isEmpty();
        assertThat(tiers.floor(0.099)).isEmpty();
        assertThat(tiers.floor(0.1)).contains(Tier.SMALL);
        assertThat(tiers.floor(1)).contains(Tier.MEDIUM);
        assertThat(tiers.floor(10)).contains(Tier.LARGE);
        assertThat(tiers.floor(1e300)).contains(Tier.LARGE);
        assertThat(tiers.floor(Double.NaN)).isEmpty();
    }

    @Test
    void timesMustBePositiveAndNotDecrease() {
        assertThatThrownBy(() -> new SearchTiers(Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(2)))
                .hasMessageContaining("> 0");
        assertThatThrownBy(() -> new SearchTiers(Duration.ofSeconds(2), Duration.ofSeconds(1), Duration.ofSeconds(3)))
                .hasMessageContaining("must not decrease");
    }
}
