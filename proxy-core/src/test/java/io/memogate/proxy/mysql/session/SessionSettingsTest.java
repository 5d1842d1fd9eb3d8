package io.memogate.proxy.mysql.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.mysql.OptimizerSettings;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The optimizer variables a MySQL session's texts set, over whatever the server's defaults are then. */
class SessionSettingsTest {

    private static final OptimizerSettings SERVER = OptimizerSettings.MARIADB_DEFAULTS;

    @Test
    void setsInATextApplyInOrderAndDefaultGivesTheServersValueBack() {
        SessionSettings session = new SessionSettings();
        session.sent("SELECT 1; SET optimizer_prune_level = 0, optimizer_search_depth = 5");
        assertThat(session.current(SERVER)).isEqualTo(new OptimizerSettings(5, 0, Map.of()));
        session.sent("set optimizer_search_depth = default");
        OptimizerSettings later = SERVER.with("optimizer_search_depth", "10");
        assertThat(session.current(later)).isEqualTo(new OptimizerSettings(10, 0, Map.of()));
    }

    @Test
    void eachOptimizerSwitchAddsToTheOnesBefore() {
        SessionSettings session = new SessionSettings();
        session.sent("SET optimizer_switch = 'semijoin=off'");
        session.sent("SET optimizer_switch = 'derived_merge=off'");
        OptimizerSettings now = (OptimizerSettings) session.current(SERVER);
        assertThat(now.switchOn("semijoin", true)).isFalse();
        assertThat(now.switchOn("derived_merge", true)).isFalse();
        session.sent("SET optimizer_switch = default");
        assertThat(session.current(SERVER)).isEqualTo(SERVER);
    }

    @Test
    void setStatementAppliesToItsStatementAndNotAfter() {
        SessionSettings session = new SessionSettings();
        String text = "SET STATEMENT optimizer_prune_level = 0 FOR SELECT * FROM a JOIN b ON a.x = b.x";
        assertThat(((OptimizerSettings) session.forStatement(text, SERVER)).pruneLevel()).isZero();
        session.sent(text);
        assertThat(session.current(SERVER)).isEqualTo(SERVER);
    }

    @Test
    void aResetSessionHasTheServersValuesAgain() {
        SessionSettings session = new SessionSettings();
        session.sent("SET SESSION optimizer_prune_level = 0");
        session.reset();
        assertThat(session.current(SERVER)).isEqualTo(SERVER);
    }
}
