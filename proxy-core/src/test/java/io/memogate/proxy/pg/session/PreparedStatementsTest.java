package io.memogate.proxy.pg.session;

import static io.memogate.estimator.RoutineDefinitions.NONE;
import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.RoutineDefinitions;
import io.memogate.estimator.RoutineDefinitions.Language;
import io.memogate.estimator.RoutineDefinitions.Routine;
import io.memogate.estimator.lexer.LexicalAnalyzer;
import io.memogate.estimator.postgres.PostgresLexicalRules;
import io.memogate.proxy.pg.admission.SentText;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * A Bind shows its statement's text to the session's settings and SQL-prepared statements only when the
 * text may change them; the others skip those scans at every Bind. A SET sent through the extended
 * protocol (as pgjdbc sends every statement) must never be skipped.
 */
class PreparedStatementsTest {

    private final PreparedStatements statements = new PreparedStatements();

    @Test
    void onlyTextsThatMayChangeTheSessionAreShownAtBind() {
        statements.parsed("join", "SELECT * FROM a JOIN b ON a.id = b.id WHERE a.x = $1");
        statements.parsed("set", "SET join_collapse_limit = 20");
        statements.parsed("config", "SELECT set_config('geqo_threshold', '20', false)");
        statements.parsed("prepare", "PREPARE q AS SELECT * FROM a, b WHERE a.x = b.x");
        statements.parsed("deallocate", "DEALLOCATE ALL");

        assertThat(statements.mayChangeSession("join", NONE)).isFalse();
        assertThat(statements.mayChangeSession("set", NONE)).isTrue();
        assertThat(statements.mayChangeSession("config", NONE)).isTrue();
        assertThat(statements.mayChangeSession("prepare", NONE)).isTrue();
        assertThat(statements.mayChangeSession("deallocate", NONE)).isTrue();
        assertThat(statements.mayChangeSession("never parsed", NONE)).as("the server will refuse it; shown anyway")
                .isTrue();
    }

    /** A call of a routine that sets is shown too, once a catalog read knows the routine. */
    @Test
    void aCallOfARoutineThatSetsIsShownAtBindOnceTheCatalogKnowsIt() {
        statements.parsed("widen", "select widen()");
        assertThat(statements.mayChangeSession("widen", NONE)).isFalse();
        RoutineDefinitions read = RoutineDefinitions.of(List.of(Routine.of("public", "widen", Language.PLPGSQL,
                "begin set join_collapse_limit = 20; end")));
        assertThat(statements.mayChangeSession("widen", read)).isTrue();
        assertThat(statements.mayChangeSession("widen", NONE)).as("a read that no longer has it").isFalse();
    }

    @Test
    void theUnnamedStatementIsJudgedByItsLatestText() {
        statements.parsed("", "SELECT * FROM a JOIN b ON a.id = b.id");
        assertThat(statements.mayChangeSession("", NONE)).isFalse();
        statements.parsed("", "set geqo = off");
        assertThat(statements.mayChangeSession("", NONE)).isTrue();
        statements.closed("");
        assertThat(statements.mayChangeSession("", NONE)).isTrue();
    }

    /**
     * "UPDATE ... SET" holds "set": read at its first Bind and found to change nothing, it is not read again
     * while the routines are those it was read with; a SET is read at every Bind.
     */
    @Test
    void aTextReadAndFoundToChangeNothingIsNotShownAgainUnderTheSameRoutines() {
        LexicalAnalyzer analyzer = PostgresLexicalRules.analyzer();
        String update = "UPDATE accounts SET balance = balance + $1 WHERE id = $2";
        statements.parsed("update", update);
        statements.parsed("set", "SET join_collapse_limit = 20");
        assertThat(statements.mayChangeSession("update", NONE)).isTrue();

        statements.read("update", NONE, SentText.read(update, analyzer, NONE));
        statements.read("set", NONE, SentText.read("SET join_collapse_limit = 20", analyzer, NONE));

        assertThat(statements.mayChangeSession("update", NONE)).isFalse();
        assertThat(statements.mayChangeSession("set", NONE)).isTrue();
        RoutineDefinitions read = RoutineDefinitions.of(List.of(Routine.of("public", "accounts", Language.PLPGSQL,
                "begin set join_collapse_limit = 20; end")));
        assertThat(statements.mayChangeSession("update", read)).as("other routines: read again").isTrue();
    }

    @Test
    void aBypassHoldsWhileWhatAdmissionKnowsOfTheDatabaseIsTheSame() {
        Object before = new Object();
        Object after = new Object();
        statements.parsed("report", "SELECT report()");
        assertThat(statements.bypasses("report", before)).isFalse();
        statements.bypassing("report", before);
        assertThat(statements.bypasses("report", before)).isTrue();
        assertThat(statements.bypasses("report", after)).as("the catalog was read again").isFalse();
        statements.closed("report");
        assertThat(statements.bypasses("report", before)).isFalse();
    }
}
