package io.memogate.estimator.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.lexer.SettingChange.Action;
import io.memogate.estimator.lexer.SettingChange.Scope;
import io.memogate.estimator.lexer.SettingChange;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SettingChangeTest {

    private static SettingChange change(String sql) {
        Optional<SettingChange> change = SettingParser.of(sql);
        assertThat(change).as(sql).isPresent();
        return change.get();
    }

    private static SettingChange set(String name, String value, Scope scope) {
        return new SettingChange(name, Action.SET, Optional.of(value), scope);
    }

    @Test
    void setWithToOrEquals() {
        assertThat(change("SET join_collapse_limit = 1")).isEqualTo(set("join_collapse_limit", "1", Scope.SESSION));
        assertThat(change("set From_Collapse_Limit to 30")).isEqualTo(set("from_collapse_limit", "30", Scope.SESSION));
        assertThat(change("SET SESSION geqo TO off")).isEqualTo(set("geqo", "off", Scope.SESSION));
        assertThat(change("set local geqo_threshold = 12")).isEqualTo(set("geqo_threshold", "12", Scope.LOCAL));
    }

    @Test
    void valuesAreUnquoted() {
        assertThat(change("set work_mem = '64MB'").value()).contains("64MB");
        assertThat(change("set application_name = 'it''s'").value()).contains("it's");
        assertThat(change("set application_name = E'a\\'b'").value()).contains("a'b");
        assertThat(change("set application_name = $$x$$").value()).contains("x");
        assertThat(change("set search_path to \"My Schema\", public").value()).contains("My Schema, public");
        assertThat(change("set search_path = A, 'b'").value()).contains("a, b");
        assertThat(change("set extra_float_digits = -3").value()).contains("-3");
        assertThat(change("set seq_page_cost = 1.5").value()).contains("1.5");
        assertThat(change("set geqo = TRUE").value()).contains("true");
    }

    @Test
    void customAndQualifiedNames() {
        assertThat(change("set myapp.Tenant = '42'")).isEqualTo(set("myapp.tenant", "42", Scope.SESSION));
    }

    @Test
    void setToDefault() {
        assertThat(change("set geqo to default"))
                .isEqualTo(new SettingChange("geqo", Action.SET_DEFAULT, Optional.empty(), Scope.SESSION));
        assertThat(change("set local join_collapse_limit = DEFAULT"))
                .isEqualTo(new SettingChange("join_collapse_limit", Action.SET_DEFAULT, Optional.empty(), Scope.LOCAL));
    }

    @Test
    void specialSetForms() {
        assertThat(change("set time zone 'UTC'")).isEqualTo(set("timezone", "UTC", Scope.SESSION));
        assertThat(change("set time zone local").action()).isEqualTo(Action.SET_DEFAULT);
        assertThat(change("set schema 'app'")).isEqualTo(set("search_path", "app", Scope.SESSION));
        assertThat(change("set names 'UTF8'")).isEqualTo(set("client_encoding", "UTF8", Scope.SESSION));
        assertThat(change("set role admin")).isEqualTo(set("role", "admin", Scope.SESSION));
        assertThat(change("set session authorization bob")).isEqualTo(set("session_authorization", "bob",
                Scope.SESSION));
        assertThat(change("set local time zone interval '+02:00' hour to minute"))
                .isEqualTo(set("timezone", "interval '+02:00' hour to minute", Scope.LOCAL));
    }

    @Test
    void reset() {
        assertThat(change("RESET Join_Collapse_Limit"))
                .isEqualTo(new SettingChange("join_collapse_limit", Action.RESET, Optional.empty(), Scope.SESSION));
        assertThat(change("reset all"))
                .isEqualTo(new SettingChange("", Action.RESET_ALL, Optional.empty(), Scope.SESSION));
        assertThat(change("reset time zone").name()).isEqualTo("timezone");
        assertThat(change("reset session authorization").name()).isEqualTo("session_authorization");
    }

    @Test
    void setConfigWithConstants() {
        assertThat(change("select set_config('geqo_threshold', '8', false)"))
                .isEqualTo(set("geqo_threshold", "8", Scope.SESSION));
        assertThat(change("SELECT pg_catalog.set_config('Join_Collapse_Limit', '1', true)"))
                .isEqualTo(set("join_collapse_limit", "1", Scope.LOCAL));
        assertThat(change("select set_config('search_path', '', 't')")).isEqualTo(set("search_path", "", Scope.LOCAL));
        assertThat(change("select set_config('x.y', 5, 'off')")).isEqualTo(set("x.y", "5", Scope.SESSION));
    }

    @ParameterizedTest
    @ValueSource(strings = {"select set_config('geqo', $1, false)", "select set_config($1, 'on', false)",
            "select set_config('geqo', 'on', is_local)", "select set_config('geqo', 'on', false), 1",
            "select set_config('geqo', 'on', 'maybe')", "select set_config('geqo', 'on')", "select 1",
            "set transaction isolation level serializable", "set session characteristics as transaction read only",
            "set constraints all deferred", "set", "set x", "set x y", "reset", "reset a b", "show geqo",
            "select * from t", "", "set local"})
    void notASettingChange(String sql) {
        assertThat(SettingParser.of(sql)).as(sql).isEmpty();
    }
}
