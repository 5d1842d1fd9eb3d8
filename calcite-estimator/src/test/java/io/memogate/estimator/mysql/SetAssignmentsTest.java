package io.memogate.estimator.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.lexer.SettingChange;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The optimizer settings a session's SET and SET STATEMENT give it, as the server applies them. */
class SetAssignmentsTest {

    private static List<SettingChange> set(String sql) {
        return SetAssignments.of(MySqlLexicalRules.tokens(sql));
    }

    private static SettingChange to(String name, String value) {
        return new SettingChange(name, SettingChange.Action.SET, Optional.of(value), SettingChange.Scope.SESSION);
    }

    @Test
    void everySessionAssignmentOfASetIsRead() {
        assertThat(set("SET optimizer_prune_level = 0, SESSION optimizer_search_depth := 4, "
                + "@@session.optimizer_switch = 'semijoin=off', @@Local.sort_buffer_size=1048576"))
                .containsExactly(to("optimizer_prune_level", "0"), to("optimizer_search_depth", "4"),
                        to("optimizer_switch", "semijoin=off"), to("sort_buffer_size", "1048576"));
    }

    @Test
    void globalAssignmentsUserVariablesAndExpressionsChangeNothingTheSessionPlansWith() {
        assertThat(set("SET GLOBAL optimizer_prune_level = 0, @@global.optimizer_search_depth = 1, @x = 5, "
                + "optimizer_search_depth = 2 + 3")).isEmpty();
        assertThat(set("SET NAMES utf8mb4")).isEmpty();
    }

    @Test
    void defaultGivesTheGlobalValueBack() {
        assertThat(set("SET optimizer_search_depth = DEFAULT")).containsExactly(new SettingChange(
                "optimizer_search_depth", SettingChange.Action.SET_DEFAULT, Optional.empty(),
                SettingChange.Scope.SESSION));
    }

    @Test
    void setStatementGivesItsSettingsApartFromAPlainSet() {
        var tokens = MySqlLexicalRules.tokens("SET STATEMENT max_statement_time=10, optimizer_prune_level=0 FOR "
                + "SELECT * FROM a JOIN b ON a.x = b.x");
        assertThat(SetAssignments.ofSetStatement(tokens))
                .containsExactly(to("max_statement_time", "10"), to("optimizer_prune_level", "0"));
        assertThat(SetAssignments.of(tokens)).isEmpty();
        assertThat(new MySqlStatementReader().settingChange(tokens)).isEmpty();
    }

    @Test
    void theReaderGivesTheLastOptimizerSettingOfASet() {
        assertThat(new MySqlStatementReader().settingChange(MySqlLexicalRules.tokens(
                "SET optimizer_prune_level = 0, sql_mode = ''"))).contains(to("optimizer_prune_level", "0"));
    }
}
