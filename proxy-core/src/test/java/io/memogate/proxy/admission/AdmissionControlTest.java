package io.memogate.proxy.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.planner.PlannerSettings;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AdmissionControlTest {

    @Test
    void theServersPlannerSettingsAreWhatSessionsStartFrom() {
        PlannerSettings settings = AdmissionControl.plannerSettings(Map.of("join_collapse_limit", "20",
                "from_collapse_limit", "16", "geqo", "off", "geqo_threshold", "14", "work_mem", "4MB"));
        assertThat(settings.joinCollapseLimit()).isEqualTo(20);
        assertThat(settings.fromCollapseLimit()).isEqualTo(16);
        assertThat(settings.geqo()).isFalse();
        assertThat(settings.geqoThreshold()).isEqualTo(14);
    }

    @Test
    void withoutAnyServerSettingsPostgresDefaultsApply() {
        assertThat(AdmissionControl.plannerSettings(Map.of())).isEqualTo(PlannerSettings.DEFAULTS);
    }
}
