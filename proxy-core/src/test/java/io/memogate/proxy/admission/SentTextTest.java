package io.memogate.proxy.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.RoutineDefinitions;
import io.memogate.estimator.lexer.LexicalAnalyzer;
import io.memogate.estimator.planner.PlannerSettings;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class SentTextTest {

    private final LexicalAnalyzer analyzer = new LexicalAnalyzer();
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

    @Test
    void aTextWithoutThoseWordsChangesNothingAndNeitherDoesAnUnreadOne() {
        SentText.read("select 1 -- " + "x".repeat(300_000), analyzer, RoutineDefinitions.NONE)
                .applyTo(settings, prepared, false);
        SentText.unread("set join_collapse_limit = 3; prepare p as select 42").applyTo(settings, prepared, false);
        assertThat(settings.current()).isEqualTo(PlannerSettings.DEFAULTS);
        assertThat(prepared.textOf("p")).isEmpty();
    }
}
