package io.memogate.proxy.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.estimator.dialect.DialectSettings;
import io.memogate.estimator.postgres.PlannerSettings;
import io.memogate.proxy.admission.LoginSettings;
import io.memogate.proxy.postgres.catalog.RoleSettings;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** PostgreSQL as a kind of server: the settings its broker reads become what its sessions start from. */
class PostgresServerTest {

    @Test
    void theServersPlannerSettingsAreWhatSessionsStartFrom() {
        PlannerSettings settings = PostgresServer.KIND.defaults(Map.of("join_collapse_limit", "20",
                "from_collapse_limit", "16", "geqo", "off", "geqo_threshold", "14", "work_mem", "4MB"));
        assertThat(settings.joinCollapseLimit()).isEqualTo(20);
        assertThat(settings.fromCollapseLimit()).isEqualTo(16);
        assertThat(settings.geqo()).isFalse();
        assertThat(settings.geqoThreshold()).isEqualTo(14);
    }

    @Test
    void withoutAnyServerSettingsPostgresDefaultsApply() {
        assertThat(PostgresServer.KIND.defaults(Map.of())).isEqualTo(PlannerSettings.DEFAULTS);
        assertThat(PostgresServer.KIND.builtInDefaults()).isEqualTo(PlannerSettings.DEFAULTS);
    }

    @Test
    void anotherKindsSettingsAreAWiringMistakeNotDefaults() {
        DialectSettings other = new DialectSettings() {
            @Override
            public DialectSettings with(String name, String value) {
                return this;
            }
        };
        assertThatThrownBy(() -> PostgresServer.plannerSettings(other))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("PostgreSQL's planner settings");
    }

    @Test
    void loginSettingsReadOfNoneAreNoRoleSettings() {
        assertThat(PostgresServer.roleSettings(LoginSettings.NONE)).isSameAs(RoleSettings.NONE);
        RoleSettings read = new RoleSettings(Map.of("join_collapse_limit", "4"), Map.of(), Map.of(), Map.of());
        assertThat(PostgresServer.roleSettings(read)).isSameAs(read);
    }
}
