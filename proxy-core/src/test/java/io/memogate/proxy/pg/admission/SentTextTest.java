package io.memogate.proxy.pg.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.RoutineDefinitions.Language;
import io.memogate.estimator.RoutineDefinitions.Routine;
import io.memogate.estimator.RoutineDefinitions;
import io.memogate.estimator.lexer.LexicalAnalyzer;
import io.memogate.estimator.postgres.PlannerSettings;
import io.memogate.estimator.postgres.PostgresLexicalRules;
import io.memogate.proxy.postgres.catalog.RoleSettings;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class SentTextTest {

    private final LexicalAnalyzer analyzer = PostgresLexicalRules.analyzer();
    private final SessionSettings settings = new SessionSettings(() -> PlannerSettings.DEFAULTS, analyzer);
    private final PreparedQueries prepared = new PreparedQueries(analyzer);

    /** As a long Query is: read on another thread, applied on the session's, with the same effect as a short one. */
    @Test
    void aTextReadOnAnotherThreadChangesTheSessionWhenApplied() {
        String sql = "set join_collapse_limit = 3; prepare p as select 42; select 1 -- " + "x".repeat(300_000);
        SentText text = CompletableFuture.supplyAsync(() -> SentText.read(sql, analyzer, RoutineDefinitions.NONE))
                .join();
        assertThat(settings.current().joinCollapseLimit()).as("nothing changes while it is only read").isEqualTo(8);

        text.applyTo(settings, prepared, false);

        assertThat(settings.current().joinCollapseLimit()).isEqualTo(3);
        assertThat(prepared.textOf("p")).contains("prepare p as select 42");
    }

    /**
     * PREPARE, DEALLOCATE and DISCARD ALL change the session's prepared statements; a report that only holds the
     * word (a column prepared_at, a comment) changes nothing, so it is neither read again at each Bind nor kept
     * from running under tighter settings.
     */
    @Test
    void onlyAStatementThatPreparesOrDeallocatesChangesThePreparedOnes() {
        assertThat(SentText.read("prepare q as select 1", analyzer, RoutineDefinitions.NONE).changesSession()).isTrue();
        assertThat(SentText.read("select 1; DEALLOCATE q", analyzer, RoutineDefinitions.NONE).changesSession())
                .isTrue();
        assertThat(SentText.read("discard all", analyzer, RoutineDefinitions.NONE).changesSession()).isTrue();
        assertThat(SentText.read("select prepared_at from orders /* prepared */", analyzer, RoutineDefinitions.NONE)
                .changesSession()).isFalse();
        assertThat(SentText.read("select * from deallocated_pages", analyzer, RoutineDefinitions.NONE)
                .changesSession()).isFalse();
    }

    /** A prepared BEGIN or COMMIT is read again at each Bind: it moves the block its session's SET LOCAL needs. */
    @Test
    void aTextThatOpensOrEndsABlockChangesTheSessionAndOneThatOnlyStartsWithTheWordDoesNot() {
        assertThat(SentText.read("BEGIN", analyzer, RoutineDefinitions.NONE).changesSession()).isTrue();
        assertThat(SentText.read("start transaction read only", analyzer, RoutineDefinitions.NONE).changesSession())
                .isTrue();
        assertThat(SentText.read("commit", analyzer, RoutineDefinitions.NONE).changesSession()).isTrue();
        assertThat(SentText.read("beginning", analyzer, RoutineDefinitions.NONE).changesSession()).isFalse();
        assertThat(SentText.read("end_dates", analyzer, RoutineDefinitions.NONE).changesSession()).isFalse();
        assertThat(SentText.read("select 1", analyzer, RoutineDefinitions.NONE).changesSession()).isFalse();
        assertThat(SentText.read("/* app /* nested */ */ -- tag\n begin", analyzer, RoutineDefinitions.NONE)
                .changesSession()).as("after comments").isTrue();
        assertThat(SentText.read("/* begin */ select 1", analyzer, RoutineDefinitions.NONE).mayOpenOrEnd())
                .as("a comment's words are not the statement's: not lexed for it").isFalse();

        SentText.read("begin", analyzer, RoutineDefinitions.NONE).applyTo(settings, prepared, false);
        SentText.read("set local geqo_threshold = 20", analyzer, RoutineDefinitions.NONE)
                .applyTo(settings, prepared, false);
        assertThat(settings.current().geqoThreshold()).as("in the block the BEGIN opened").isEqualTo(20);
    }

    @Test
    void aTextWithoutThoseWordsChangesNothingAndNeitherDoesAnUnreadOne() {
        SentText.read("select 1 -- " + "x".repeat(300_000), analyzer, RoutineDefinitions.NONE)
                .applyTo(settings, prepared, false);
        SentText.unread("set join_collapse_limit = 3; prepare p as select 42").applyTo(settings, prepared, false);
        assertThat(settings.current()).isEqualTo(PlannerSettings.DEFAULTS);
        assertThat(prepared.textOf("p")).isEmpty();
    }

    /**
     * What the routines a text calls leave is read with the text, on its thread, with the routines the session knew
     * when it sent it: applying it on the session's loop lexes nothing again, though each statement of a 16 MiB
     * text of UPDATE ... SET would be (about a second), and a catalog read landing in between changes nothing.
     */
    @Test
    void theSettingsTheCalledRoutinesLeaveAreReadWithTheText() {
        RoutineDefinitions routines = RoutineDefinitions.of(List.of(Routine.of("public", "narrow", Language.PLPGSQL,
                "begin set join_collapse_limit = 1; end")));
        AtomicReference<RoutineDefinitions> known = new AtomicReference<>(routines);
        SessionSettings dw = new SessionSettings(() -> PlannerSettings.DEFAULTS, database -> RoleSettings.NONE,
                database -> known.get(), analyzer);
        dw.startupParameters(Map.of("user", "u", "database", "dw"));
        String sql = "update t set a = 1; select narrow() -- " + "x".repeat(300_000);
        SentText text = CompletableFuture.supplyAsync(() -> SentText.read(sql, analyzer, dw.routines())).join();
        known.set(RoutineDefinitions.NONE);

        text.applyTo(dw, prepared, false);

        assertThat(dw.current().joinCollapseLimit()).isEqualTo(1);
    }
}
