package io.memogate.proxy.pg.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.memogate.proxy.admin.ConsoleResult;
import io.memogate.proxy.admin.ResultTable;
import io.memogate.proxy.pg.message.backend.BodilessMessage;
import io.memogate.proxy.pg.message.backend.CommandComplete;
import io.memogate.proxy.pg.message.backend.DataRow;
import io.memogate.proxy.pg.message.backend.EmptyQueryResponse;
import io.memogate.proxy.pg.message.backend.RowDescription;
import io.memogate.proxy.pg.message.frontend.BoundPortal;
import io.memogate.proxy.pg.message.frontend.Parse;
import io.memogate.proxy.pg.message.frontend.StatementOrPortal;
import io.memogate.proxy.pg.session.ConsoleStatements.Portal;
import io.memogate.proxy.pg.session.ConsoleStatements.StepFailed;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The console's statements and portals answer the extended protocol as PostgreSQL does, errors included. */
class ConsoleStatementsTest {

    private static final ConsoleResult THREE_TIERS = ConsoleResult.rows("SHOW",
            ResultTable.of("tier", "limit").row("small", 8).row("medium", 2).row("large", 1).build());

    private final ConsoleStatements statements = new ConsoleStatements();

    @Test
    void aPortalAnswersInChunksOfMaxRowsThenCompletes() throws StepFailed {
        statements.parse(new Parse("", "SHOW TIERS", List.of()));
        statements.bind(new BoundPortal("", "", 0, List.of()));
        Portal portal = statements.portal("");
        assertThat(portal.needsRun()).isTrue();
        portal.ran(THREE_TIERS);

        assertThat(portal.describe()).isEqualTo(RowDescription.ofText(List.of("tier", "limit")));
        assertThat(portal.execute(2)).containsExactly(new DataRow(List.of("small", "8")),
                new DataRow(List.of("medium", "2")), BodilessMessage.PORTAL_SUSPENDED);
        assertThat(portal.execute(2)).containsExactly(new DataRow(List.of("large", "1")), new CommandComplete("SHOW"));
        assertThat(portal.needsRun()).as("a portal runs its command once").isFalse();
    }

    @Test
    void resultFormatsFollowTheBind() throws StepFailed {
        statements.parse(new Parse("tiers", "show tiers;", List.of()));
        statements.bind(new BoundPortal("all-binary", "tiers", 0, List.of((short) 1)));
        statements.bind(new BoundPortal("each", "tiers", 0, List.of((short) 0, (short) 1)));
        statements.bind(new BoundPortal("three", "tiers", 0, List.of((short) 0, (short) 1, (short) 0)));
        statements.portal("all-binary").ran(THREE_TIERS);
        statements.portal("each").ran(THREE_TIERS);
        statements.portal("three").ran(THREE_TIERS);

        assertThat(statements.portal("all-binary").describe())
                .isEqualTo(RowDescription.ofText(List.of("tier", "limit"), List.of((short) 1, (short) 1)));
        assertThat(statements.portal("each").describe())
                .isEqualTo(RowDescription.ofText(List.of("tier", "limit"), List.of((short) 0, (short) 1)));
        assertThat(sqlState(() -> statements.portal("three").describe())).isEqualTo("08P01");
        assertThat(sqlState(() -> statements.portal("three").execute(0))).isEqualTo("08P01");
    }

    @Test
    void commandsWithoutRowsDescribeAsNoData() throws StepFailed {
        statements.parse(new Parse("", "PAUSE", List.of()));
        assertThat(statements.statement("").returnsRows()).isFalse();
        statements.bind(new BoundPortal("", "", 0, List.of()));
        Portal pause = statements.portal("");
        assertThat(pause.describe()).isEqualTo(BodilessMessage.NO_DATA);
        pause.ran(ConsoleResult.done("PAUSE", "paused"));
        assertThat(pause.execute(0)).hasSize(2).last().isEqualTo(new CommandComplete("PAUSE"));
        assertThat(pause.execute(0)).as("the notice is sent once").containsExactly(new CommandComplete("PAUSE"));
    }

    @Test
    void anEmptyQueryNeedsNoRunAndAnswersEmptyQueryResponse() throws StepFailed {
        statements.parse(new Parse("", " ; ", List.of()));
        statements.bind(new BoundPortal("", "", 0, List.of()));
        Portal empty = statements.portal("");
        assertThat(empty.needsRun()).isFalse();
        assertThat(empty.describe()).isEqualTo(BodilessMessage.NO_DATA);
        assertThat(empty.execute(0)).containsExactly(EmptyQueryResponse.INSTANCE);
    }

    @Test
    void aQueryOfOnlyCommentsIsEmptyAsInPostgresql() throws StepFailed {
        assertThat(ConsoleStatements.isEmptyQuery("-- comment")).isTrue();
        assertThat(ConsoleStatements.isEmptyQuery(" /* a /* nested */ one */ ;\n-- and a line\n")).isTrue();
        assertThat(ConsoleStatements.isEmptyQuery("")).isTrue();
        assertThat(ConsoleStatements.isEmptyQuery("/* unterminated")).as("PostgreSQL: a syntax error").isFalse();
        assertThat(ConsoleStatements.isEmptyQuery("-- note\nSHOW TIERS")).isFalse();

        statements.parse(new Parse("", "-- only a comment", List.of()));
        statements.bind(new BoundPortal("", "", 0, List.of()));
        assertThat(statements.portal("").execute(0)).containsExactly(EmptyQueryResponse.INSTANCE);
    }

    @Test
    void namesFollowPostgresqlsRules() throws StepFailed {
        assertThat(sqlState(() -> statements.parse(new Parse("", "SHOW TIERZ", List.of())))).isEqualTo("42601");
        statements.parse(new Parse("s1", "SHOW TIERS", List.of()));
        assertThat(sqlState(() -> statements.parse(new Parse("s1", "SHOW QUEUE", List.of())))).isEqualTo("42P05");
        statements.parse(new Parse("", "SHOW QUEUE", List.of()));
        statements.parse(new Parse("", "SHOW STATS", List.of())); // the unnamed statement is replaced
        assertThat(statements.statement("").sql()).isEqualTo("SHOW STATS");

        assertThat(sqlState(() -> statements.bind(new BoundPortal("", "s2", 0, List.of())))).isEqualTo("26000");
        assertThat(sqlState(() -> statements.bind(new BoundPortal("", "s1", 1, List.of())))).isEqualTo("08P01");
        assertThat(sqlState(() -> statements.bind(new BoundPortal("", "s1", 0, List.of((short) 2)))))
                .isEqualTo("22023");
        statements.bind(new BoundPortal("p", "s1", 0, List.of()));
        assertThat(sqlState(() -> statements.bind(new BoundPortal("p", "s1", 0, List.of())))).isEqualTo("42P03");

        statements.synced();
        assertThat(sqlState(() -> statements.portal("p"))).as("a Sync ends every portal").isEqualTo("34000");
        assertThat(statements.statement("s1").sql()).as("statements live on").isEqualTo("SHOW TIERS");

        statements.close(StatementOrPortal.STATEMENT, "s1");
        statements.close(StatementOrPortal.STATEMENT, "never parsed");
        assertThat(sqlState(() -> statements.statement("s1"))).isEqualTo("26000");

        statements.simpleQuery();
        assertThat(sqlState(() -> statements.statement(""))).as("a Query replaces the unnamed statement")
                .isEqualTo("26000");
    }

    @FunctionalInterface
    private interface Step {
        void run() throws StepFailed;
    }

    private static String sqlState(Step step) {
        StepFailed failed = catchThrowableOfType(StepFailed.class, step::run);
        assertThat(failed).as("the step fails").isNotNull();
        return failed.error().sqlState();
    }
}
