package io.memogate.proxy.pg.admission;

import io.memogate.proxy.admission.Words;
import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.postgres.PlannerSettings;
import io.memogate.estimator.postgres.PostgresLexicalRules;
import org.junit.jupiter.api.Test;

class PreparedQueriesTest {

    private final PreparedQueries prepared = new PreparedQueries(PostgresLexicalRules.analyzer());

    @Test
    void anExecuteIsEstimatedAsTheQueryItsSessionPrepared() {
        String join = "select count(*) from a join b on a.x = b.x join c on c.y = b.y join d on d.z = c.z";
        CompileEstimator estimator = new CompileEstimator();
        assertThat(estimator.estimate("EXECUTE report(1)", PlannerSettings.DEFAULTS, prepared).bypass())
                .as("unknown: nothing to estimate").isTrue();

        prepared.sent("PREPARE Report (int) AS " + join);
        assertThat(prepared.textOf("report")).isPresent();
        assertThat(estimator.estimate("EXECUTE report(1)", PlannerSettings.DEFAULTS, prepared).relations()).isEqualTo(4);
    }

    @Test
    void deallocateAndDiscardAllForgetThem() {
        prepared.sent("prepare a as select 1; prepare \"B\" as select 2; prepare c as select 3");
        prepared.sent("DEALLOCATE a");
        prepared.sent("deallocate prepare \"B\"");
        assertThat(prepared.textOf("a")).isEmpty();
        assertThat(prepared.textOf("B")).isEmpty();
        assertThat(prepared.textOf("c")).isPresent();
        prepared.sent("DISCARD ALL");
        assertThat(prepared.textOf("c")).isEmpty();

        prepared.sent("prepare d as select 4");
        prepared.sent("deallocate all");
        assertThat(prepared.textOf("d")).isEmpty();
    }

    @Test
    void aSecondPrepareOfTheSameNameKeepsTheFirstAsTheServerDoes() {
        prepared.sent("prepare q as select 1 from a, b");
        prepared.sent("prepare q as select 2");
        assertThat(prepared.textOf("q")).hasValue("prepare q as select 1 from a, b");
    }

    /** The filter that spares most statements the lexer must never spare one that changes them. */
    @Test
    void theWordsThatChangePreparedStatementsAreFoundInAnyCaseAnywhere() {
        for (String sql : new String[] {"PREPARE p AS SELECT 1", "select 1; prepare p as select 2", "Deallocate p",
                "/* x */ DEALLOCATE ALL", "discard all", "DISCARD ALL", "select 1;DisCard  all"}) {
            assertThat(PreparedQueries.mayPrepareOrDeallocate(sql)).as(sql).isTrue();
        }
        for (String sql : new String[] {"", "p", "d", "prepar", "SELECT * FROM prep, deal WHERE discar = 1",
                "SELECT 'preparation'"}) {
            assertThat(PreparedQueries.mayPrepareOrDeallocate(sql)).as(sql).isFalse();
        }
        assertThat(Words.containsIgnoreCase("SELECT 1; EXECUTE p", "execute")).isTrue();
        assertThat(Words.containsIgnoreCase("SELECT executed FROM t", "execute")).isTrue();
        assertThat(Words.containsIgnoreCase("SELECT exec FROM t", "execute")).isFalse();
        assertThat(Words.containsIgnoreCase("execut", "execute")).isFalse();
    }
}
