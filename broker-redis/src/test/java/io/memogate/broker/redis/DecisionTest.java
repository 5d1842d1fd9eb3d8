package io.memogate.broker.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.broker.gateway.GatewayRejectedException;
import io.memogate.broker.gateway.Tier;
import java.util.List;
import org.junit.jupiter.api.Test;

class DecisionTest {

    @Test
    void grantsAndRefusalsAreReadAsRedisWroteThem() {
        assertThat(Decision.parse("A 41-ab:7 2")).isEqualTo(new Decision.Granted("41-ab:7", Tier.MEDIUM));
        assertThat(Decision.parse("R 41-ab:8 T 3 1 0")).isEqualTo(new Decision.Refused("41-ab:8",
                GatewayRejectedException.Reason.TIMEOUT, Tier.LARGE, true, false));
        assertThat(Decision.parse("R 41-ab:9 Q 1 0 1")).isEqualTo(new Decision.Refused("41-ab:9",
                GatewayRejectedException.Reason.QUEUE_FULL, Tier.SMALL, false, true));
    }

    @Test
    void anAnswerFromAnotherVersionIsRefusedNotGuessed() {
        assertThatThrownBy(() -> Decision.parse("G 41-ab:7 2"))
                .hasMessageContaining("cannot read: 'G 41-ab:7 2'");
        assertThatThrownBy(() -> FleetReply.parse(List.of(0L, "x")))
                .hasMessageContaining("is another version of the gateway functions loaded?");
    }
}
