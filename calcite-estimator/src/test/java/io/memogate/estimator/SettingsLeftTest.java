package io.memogate.estimator;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.RoutineDefinitions.Language;
import io.memogate.estimator.RoutineDefinitions.Routine;
import io.memogate.estimator.lexer.LexicalAnalysis;
import io.memogate.estimator.lexer.LexicalAnalyzer;
import io.memogate.estimator.lexer.SettingChange.Action;
import io.memogate.estimator.lexer.SettingChange.Scope;
import io.memogate.estimator.lexer.SettingChange;
import io.memogate.estimator.postgres.PostgresLexicalRules;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A routine's SET outlives it: PostgreSQL keeps a SET, RESET or set_config(..., false) of a routine's body for
 * the rest of the session, even in a routine with SET clauses of its own, and a SET LOCAL until the transaction
 * ends, unless the routine's SET clause names that setting.
 */
class SettingsLeftTest {

    private static final LexicalAnalyzer ANALYZER = PostgresLexicalRules.analyzer();

    private static SettingChange set(String name, String value, Scope scope) {
        return new SettingChange(name, Action.SET, Optional.of(value), scope);
    }

    private static Routine plpgsql(String name, String body, String... settings) {
        return Routine.of("public", name, Language.PLPGSQL, body, List.of(settings));
    }

    /** What running {@code sql}, one statement, leaves in the session besides its own SET. */
    private static List<SettingChange> left(RoutineDefinitions routines, String sql) {
        LexicalAnalysis lexed = ANALYZER.analyze(sql);
        return routines.settingsLeftBy(sql, lexed.statements().get(0));
    }

    @Test
    void aRoutinesSetsOutliveItWhetherOrNotItHasSetClauses() {
        RoutineDefinitions routines = RoutineDefinitions.of(List.of(
                plpgsql("widen", "begin set join_collapse_limit = 20;"
                        + " perform set_config('geqo_threshold', '20', false);"
                        + " set local from_collapse_limit = 20; end"),
                plpgsql("configured", "begin set join_collapse_limit = 21; set local geqo_threshold = 5;"
                        + " set local geqo = off; end", "geqo_threshold=3"),
                plpgsql("report", "begin perform count(*) from a join b on a.id = b.id; end")));
        assertThat(left(routines, "select widen()")).containsExactly(set("join_collapse_limit", "20", Scope.SESSION),
                set("geqo_threshold", "20", Scope.SESSION), set("from_collapse_limit", "20", Scope.LOCAL));
        assertThat(left(routines, "SELECT x FROM t WHERE public.Configured() IS NULL")).as("its SET clause restores"
                + " geqo_threshold, which it set locally").containsExactly(
                set("join_collapse_limit", "21", Scope.SESSION), set("geqo", "off", Scope.LOCAL));
        for (String none : List.of("select report()", "select 1", "explain select widen()",
                "create view v as select widen()", "declare c cursor for select widen()")) {
            assertThat(left(routines, none)).as(none).isEmpty();
        }
        assertThat(routines.mayLeaveSettings("SELECT WIDEN()")).isTrue();
        assertThat(routines.mayLeaveSettings("select report()")).as("report sets nothing").isFalse();
        assertThat(RoutineDefinitions.of(List.of(plpgsql("report", "begin perform 1; end")))
                .mayLeaveSettings("select report()")).isFalse();
    }

    @Test
    void aCalledRoutinesSetsAreLeftByItsCallersAndRecursionEnds() {
        RoutineDefinitions routines = RoutineDefinitions.of(List.of(
                plpgsql("inner_wide", "begin set join_collapse_limit = 20; set local geqo = off; end"),
                plpgsql("outer_wide", "begin perform inner_wide(); end", "geqo=on"),
                plpgsql("again", "begin set from_collapse_limit = 9; perform again(); end")));
        assertThat(left(routines, "call outer_wide()")).as("outer_wide's SET clause restores geqo")
                .containsExactly(set("join_collapse_limit", "20", Scope.SESSION));
        assertThat(routines.mayLeaveSettings("select outer_wide()")).isTrue();
        assertThat(left(routines, "select again()")).containsExactly(set("from_collapse_limit", "9", Scope.SESSION));
    }

    @Test
    void aDoBlocksSetsOutliveItWithoutACatalog() {
        assertThat(left(RoutineDefinitions.NONE, "do $$ begin set join_collapse_limit = 20; perform 1; end $$"))
                .containsExactly(set("join_collapse_limit", "20", Scope.SESSION));
        assertThat(left(RoutineDefinitions.NONE, "do language plpythonu $$ plpy.execute('set geqo = off') $$"))
                .isEmpty();
    }
}
