package io.memogate.proxy.pg.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.RoutineDefinitions.Language;
import io.memogate.estimator.RoutineDefinitions.Routine;
import io.memogate.estimator.RoutineDefinitions;
import io.memogate.estimator.postgres.PlannerSettings;
import io.memogate.estimator.postgres.PostgresLexicalRules;
import io.memogate.proxy.postgres.catalog.RoleSettings;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class SessionSettingsTest {

    private final AtomicReference<PlannerSettings> server = new AtomicReference<>(PlannerSettings.DEFAULTS);
    private final SessionSettings settings = new SessionSettings(server::get, PostgresLexicalRules.analyzer());

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

    /** A DBA's SET enable_memoize = off, which the estimate follows (first-rows searches then cost far less). */
    @Test
    void memoizeIsFollowedLikeThePlannerSettings() {
        settings.sent("SET enable_memoize = off", false);
        assertThat(settings.current().memoize()).isFalse();
        settings.sent("RESET enable_memoize", false);
        assertThat(settings.current().memoize()).isTrue();
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

    /**
     * pgjdbc with autocommit off sends BEGIN, then the transaction's first statements, before one Sync: the
     * server's ReadyForQuery says "in a block" only after them all, but a SET LOCAL among them is in the block.
     */
    @Test
    void setLocalPipelinedBehindABeginCountsForTheStatementsAfterIt() {
        settings.sent("BEGIN", false);
        settings.sent("set local join_collapse_limit = 20", false);
        assertThat(settings.current().joinCollapseLimit()).isEqualTo(20);
        settings.readyForQuery(false);
        assertThat(settings.current().joinCollapseLimit()).as("until the block ends").isEqualTo(20);
        settings.sent("COMMIT", true);
        settings.sent("set local join_collapse_limit = 2", true);
        assertThat(settings.current().joinCollapseLimit()).as("pipelined after the COMMIT: no block, no change")
                .isEqualTo(20);
        settings.readyForQuery(true);
        assertThat(settings.current().joinCollapseLimit()).isEqualTo(8);
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
    void aRolesAndDatabasesSettingsComeBetweenTheServersAndTheStartupPacketsAsTheSessionFirstReadsThem() {
        AtomicReference<RoleSettings> read = new AtomicReference<>(RoleSettings.NONE);
        SessionSettings bi = new SessionSettings(server::get, database -> database.equals("dw") ? read.get()
                : RoleSettings.NONE, PostgresLexicalRules.analyzer());
        bi.startupParameters(Map.of("user", "bi", "database", "dw", "options", "-c geqo_threshold=18"));
        assertThat(bi.current()).as("until the catalog is read")
                .isEqualTo(PlannerSettings.DEFAULTS.with("geqo_threshold", "18"));

        read.set(new RoleSettings(Map.of(), Map.of("geqo_threshold", "14", "join_collapse_limit", "12"),
                Map.of("bi", Map.of("from_collapse_limit", "16")), Map.of("bi", Map.of("join_collapse_limit", "20"))));
        assertThat(bi.current().joinCollapseLimit()).as("the role in this database over the database").isEqualTo(20);
        assertThat(bi.current().fromCollapseLimit()).as("the role's own").isEqualTo(16);
        assertThat(bi.current().geqoThreshold()).as("the startup packet over the database").isEqualTo(18);

        bi.sent("set join_collapse_limit = 2", false);
        assertThat(bi.current().joinCollapseLimit()).isEqualTo(2);
        bi.sent("reset join_collapse_limit", false);
        assertThat(bi.current().joinCollapseLimit()).as("RESET returns to the role's value").isEqualTo(20);

        // ALTER ROLE since, and the catalog read again: PostgreSQL applies role settings at login only.
        read.set(new RoleSettings(Map.of(), Map.of(), Map.of(), Map.of("bi", Map.of("join_collapse_limit", "4"))));
        assertThat(bi.current().joinCollapseLimit()).as("the open session keeps its login's").isEqualTo(20);
        SessionSettings later = new SessionSettings(server::get, database -> read.get(),
                PostgresLexicalRules.analyzer());
        later.startupParameters(Map.of("user", "bi", "database", "dw"));
        assertThat(later.current().joinCollapseLimit()).as("a new session logs in with the new").isEqualTo(4);
    }

    /** The partitionwise settings are followed in the same layers as the collapse limits. */
    @Test
    void thePartitionwiseSettingsAreFollowedFromTheRoleTheStartupPacketAndTheSession() {
        RoleSettings role = new RoleSettings(Map.of(), Map.of(), Map.of(),
                Map.of("dwh", Map.of("enable_partitionwise_join", "on")));
        SessionSettings dwh = new SessionSettings(server::get, database -> role, PostgresLexicalRules.analyzer());
        dwh.startupParameters(Map.of("user", "dwh", "database", "dw",
                "options", "-c enable_partitionwise_aggregate=true"));
        assertThat(dwh.current().partitionwiseJoin()).as("the role's").isTrue();
        assertThat(dwh.current().partitionwiseAggregate()).as("the startup packet's").isTrue();

        dwh.sent("set enable_partitionwise_join = off", false);
        assertThat(dwh.current().partitionwiseJoin()).isFalse();
        dwh.sent("reset enable_partitionwise_join", false);
        assertThat(dwh.current().partitionwiseJoin()).as("RESET returns to the role's value").isTrue();
        dwh.sent("set enable_partitionwise_join = 'maybe'", false);
        assertThat(dwh.current().partitionwiseJoin()).as("a value the server refuses").isTrue();
    }

    /** A statement waiting for the catalog's first read is estimated with its role layer, under its own SETs. */
    @Test
    void theSettingsOfAStatementWaitingForTheRoleLayerAreTakenWhenItWasSent() {
        SessionSettings bi = new SessionSettings(server::get, database -> RoleSettings.NONE,
                PostgresLexicalRules.analyzer());
        bi.startupParameters(Map.of("user", "bi", "database", "dw"));
        bi.sent("set from_collapse_limit = 3", false);
        Function<RoleSettings, PlannerSettings> waiting = bi.withRoleSettings();
        bi.sent("set from_collapse_limit = 5", false); // after the statement: not its settings

        PlannerSettings settings = waiting.apply(new RoleSettings(Map.of(), Map.of(),
                Map.of("bi", Map.of("join_collapse_limit", "20", "from_collapse_limit", "20")), Map.of()));
        assertThat(settings.joinCollapseLimit()).as("the role's").isEqualTo(20);
        assertThat(settings.fromCollapseLimit()).as("the session's SET over the role's").isEqualTo(3);
    }

    /**
     * A routine's SET outlasts it, and so does a DO block's: a call of one counts as a SET of the session, undone
     * as one when its transaction rolls back; its SET LOCAL lasts until the transaction ends. Its SET clause's
     * value, restored when it returns, does not.
     */
    @Test
    void theSetsOfARoutineTheSessionCallsOrADoBlockChangeItsSettings() {
        RoutineDefinitions routines = RoutineDefinitions.of(List.of(
                Routine.of("public", "widen", Language.PLPGSQL, "begin set join_collapse_limit = 20; end",
                        List.of("geqo_threshold=20")),
                Routine.of("public", "narrow_here", Language.SQL, "set local from_collapse_limit = 2")));
        SessionSettings dw = new SessionSettings(server::get, database -> RoleSettings.NONE,
                database -> database.equals("dw") ? routines : RoutineDefinitions.NONE,
                PostgresLexicalRules.analyzer());
        dw.startupParameters(Map.of("user", "bi", "database", "dw"));
        dw.sent("select widen()", false);
        assertThat(dw.current()).isEqualTo(PlannerSettings.DEFAULTS.with("join_collapse_limit", "20"));
        dw.readyForQuery(true);
        dw.sent("select widen(), 1/0", false);
        dw.errorSeen();
        dw.readyForQuery(true);
        assertThat(dw.current().joinCollapseLimit()).as("committed before").isEqualTo(20);

        dw.sent("reset all; begin; select narrow_here()", false);
        assertThat(dw.current().fromCollapseLimit()).isEqualTo(2);
        dw.sent("commit", true);
        dw.readyForQuery(true);
        assertThat(dw.current()).isEqualTo(PlannerSettings.DEFAULTS);

        dw.sent("do $$ begin perform set_config('geqo', 'off', false); end $$", false);
        assertThat(dw.current().geqo()).isFalse();
    }

    @Test
    void roleSettingsTakeRoleInDatabaseThenRoleThenDatabaseThenAllRoles() {
        RoleSettings settings = new RoleSettings(Map.of("geqo", "off", "geqo_effort", "3", "geqo_threshold", "13"),
                Map.of("geqo_effort", "4", "geqo_threshold", "14"), Map.of("bi", Map.of("geqo_threshold", "15")),
                Map.of("etl", Map.of("geqo_threshold", "16")));
        assertThat(settings.of("bi")).containsExactlyInAnyOrderEntriesOf(
                Map.of("geqo", "off", "geqo_effort", "4", "geqo_threshold", "15"));
        assertThat(settings.of("etl")).containsEntry("geqo_threshold", "16");
        assertThat(settings.of("someone")).containsEntry("geqo_threshold", "14");
        assertThat(RoleSettings.NONE.of("bi")).isEmpty();
    }

    @Test
    void onlyTextsContainingSetCanChangeSettings() {
        assertThat(SessionSettings.mayHoldSet("select * from t limit 1 offset 2")).isTrue();
        assertThat(SessionSettings.mayHoldSet("SELECT 1")).isFalse();
        assertThat(SessionSettings.mayHoldSet("RESET geqo")).isTrue();
        assertThat(SessionSettings.mayHoldSet("se")).isFalse();
    }
}
