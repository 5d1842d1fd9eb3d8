package io.memogate.proxy.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.lexer.LexicalAnalyzer;
import io.memogate.estimator.planner.PlannerSettings;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class SessionSettingsTest {

    private final AtomicReference<PlannerSettings> server = new AtomicReference<>(PlannerSettings.DEFAULTS);
    private final SessionSettings settings = new SessionSettings(server::get, new LexicalAnalyzer());

    @Test
    void startsFromTheServersDefaultsAndFollowsThem() {
        assertThat(settings.current()).isEqualTo(PlannerSettings.DEFAULTS);
        server.set(PlannerSettings.DEFAULTS.with("join_collapse_limit", "20"));
        assertThat(settings.current().joinCollapseLimit()).isEqualTo(20);
    }

    @Test
    void startupOptionsOverrideTheServerAndResetReturnsToThem() {
        settings.startupParameters(Map.of("options", "-c join_collapse_limit=20 --geqo-threshold=18 -B 100",
                "from_collapse_limit", "16", "application_name", "bi"));
        assertThat(settings.current().joinCollapseLimit()).isEqualTo(20);
        assertThat(settings.current().geqoThreshold()).isEqualTo(18);
        assertThat(settings.current().fromCollapseLimit()).isEqualTo(16);

        settings.sent("SET join_collapse_limit = 1", false);
        assertThat(settings.current().joinCollapseLimit()).isEqualTo(1);
        settings.sent("reset join_collapse_limit", false);
        assertThat(settings.current().joinCollapseLimit()).as("the session's startup value").isEqualTo(20);
        settings.sent("SET from_collapse_limit TO 3; RESET ALL", false);
        assertThat(settings.current().fromCollapseLimit()).isEqualTo(16);
    }

    @Test
    void setLocalLastsUntilTheTransactionEnds() {
        settings.sent("begin; set local geqo = off", false);
        assertThat(settings.current().geqo()).isFalse();
        settings.readyForQuery(false);
        assertThat(settings.current().geqo()).isFalse();
        settings.sent("commit", true);
        settings.readyForQuery(true);
        assertThat(settings.current().geqo()).isTrue();
    }

    @Test
    void setLocalOutsideATransactionChangesNothing() {
        settings.sent("set local join_collapse_limit = 2", false);
        assertThat(settings.current().joinCollapseLimit()).isEqualTo(8);
    }

    @Test
    void aSessionSetInsideARolledBackTransactionIsUndoneAndInsideACommittedOneKept() {
        settings.sent("set join_collapse_limit = 4", true);
        settings.rollbackSeen();
        settings.readyForQuery(true);
        assertThat(settings.current().joinCollapseLimit()).isEqualTo(8);

        settings.sent("set join_collapse_limit = 5", true);
        settings.readyForQuery(true);
        assertThat(settings.current().joinCollapseLimit()).isEqualTo(5);
    }

    @Test
    void otherSettingsAndValuesTheServerRefusesChangeNothing() {
        settings.sent("set work_mem = '1GB'; select set_config('search_path', 'x', false)", false);
        settings.sent("set join_collapse_limit = 'lots'", false);
        assertThat(settings.current()).isEqualTo(PlannerSettings.DEFAULTS);
    }

    @Test
    void aValueTheServerRefusesLeavesTheValueBeforeItInForce() {
        settings.sent("set join_collapse_limit = 20; set geqo_threshold = 20", false);
        settings.readyForQuery(true);
        settings.sent("set geqo_threshold = 'x'", false);
        settings.errorSeen(); // 22023 invalid value for parameter
        settings.readyForQuery(true);
        settings.sent("set join_collapse_limit = 0", false);
        settings.errorSeen(); // 22023 outside the valid range
        settings.readyForQuery(true);
        assertThat(settings.current().geqoThreshold()).isEqualTo(20);
        assertThat(settings.current().joinCollapseLimit()).isEqualTo(20);
    }

    @Test
    void anErrorUndoesTheSetsOfItsImplicitTransactionButNotThoseCommittedBefore() {
        settings.sent("set from_collapse_limit = 16", false);
        settings.readyForQuery(true);
        settings.sent("set join_collapse_limit = 1; select 1/0", false);
        assertThat(settings.current().joinCollapseLimit()).as("applied when sent").isEqualTo(1);
        settings.errorSeen();
        settings.readyForQuery(true);
        assertThat(settings.current().joinCollapseLimit()).as("rolled back with the query string").isEqualTo(8);
        assertThat(settings.current().fromCollapseLimit()).as("committed before").isEqualTo(16);

        settings.sent("set join_collapse_limit = 2", false);
        settings.readyForQuery(true);
        settings.sent("select 1/0", false);
        settings.errorSeen();
        settings.readyForQuery(true);
        assertThat(settings.current().joinCollapseLimit()).isEqualTo(2);
    }

    @Test
    void onlyTextsContainingSetCanChangeSettings() {
        assertThat(SessionSettings.mayChangeSettings("select * from t limit 1 offset 2")).isTrue();
        assertThat(SessionSettings.mayChangeSettings("SELECT 1")).isFalse();
        assertThat(SessionSettings.mayChangeSettings("RESET geqo")).isTrue();
        assertThat(SessionSettings.mayChangeSettings("se")).isFalse();
    }
}
