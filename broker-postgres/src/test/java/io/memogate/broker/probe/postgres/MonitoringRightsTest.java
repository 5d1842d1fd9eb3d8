package io.memogate.broker.probe.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MonitoringRightsTest {

    @Test
    void theMessageSaysWhatToGrant() {
        assertThat(MonitoringRights.missingRightMessage("memogate_monitor"))
                .isEqualTo("monitoring user 'memogate_monitor' cannot see other sessions:"
                        + " GRANT pg_monitor TO memogate_monitor");
    }

    @Test
    void theGrantQuotesNamesThatNeedIt() {
        assertThat(MonitoringRights.identifier("Monitor")).isEqualTo("\"Monitor\"");
        assertThat(MonitoringRights.identifier("ops-team")).isEqualTo("\"ops-team\"");
        assertThat(MonitoringRights.identifier("we\"ird")).isEqualTo("\"we\"\"ird\"");
        assertThat(MonitoringRights.identifier("_mon$1")).isEqualTo("_mon$1");
    }
}
