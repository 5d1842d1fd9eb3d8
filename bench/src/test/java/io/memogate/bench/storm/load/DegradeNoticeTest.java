package io.memogate.bench.storm.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLWarning;
import org.junit.jupiter.api.Test;

/** The settings a degraded statement ran under, from the proxy's NOTICE among the statement's warnings. */
class DegradeNoticeTest {

    @Test
    void theSettingsAreReadFromTheProxysNoticeAndNothingFromOthers() {
        SQLWarning waited = new SQLWarning("statement queued for the LARGE gateway");
        waited.setNextWarning(new SQLWarning("statement planned with enable_memoize = off instead of waiting longer"
                + " than admission.degrade.after for the LARGE gateway"));
        assertThat(DegradeNotice.settingsIn(waited)).contains("enable_memoize = off");
        assertThat(DegradeNotice.settingsIn(new SQLWarning("statement planned with join_collapse_limit = 8,"
                + " from_collapse_limit = 8 instead of waiting for a compile-memory target it can never fit")))
                .contains("join_collapse_limit = 8, from_collapse_limit = 8");
        assertThat(DegradeNotice.settingsIn(new SQLWarning("relation \"t\" already exists, skipping"))).isEmpty();
        assertThat(DegradeNotice.settingsIn(null)).isEmpty();
    }
}
