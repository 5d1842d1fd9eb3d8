package io.memogate.proxy.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What an operator may type at the console, and what happens to what they may not. */
class ConsoleCommandParserTest {

    @Test
    void showCommandsInAnyCaseWithOrWithoutSemicolons() {
        assertThat(ConsoleCommandParser.parse("SHOW TIERS"))
                .isEqualTo(new ConsoleCommand.ShowCommand(ConsoleCommand.Show.TIERS));
        assertThat(ConsoleCommandParser.parse("  show\tqueue ; ;\n"))
                .isEqualTo(new ConsoleCommand.ShowCommand(ConsoleCommand.Show.QUEUE));
        assertThat(ConsoleCommandParser.parse("show statements;"))
                .isEqualTo(new ConsoleCommand.ShowCommand(ConsoleCommand.Show.STATEMENTS));
        assertThat(ConsoleCommandParser.parse("Show Config;"))
                .isEqualTo(new ConsoleCommand.ShowCommand(ConsoleCommand.Show.CONFIG));
        assertThat(ConsoleCommandParser.parse("show backends"))
                .isEqualTo(new ConsoleCommand.ShowCommand(ConsoleCommand.Show.BACKENDS));
        assertThat(ConsoleCommandParser.parse("SHOW DATABASES;")).as("PgBouncer's name for the routing table")
                .isEqualTo(new ConsoleCommand.ShowCommand(ConsoleCommand.Show.BACKENDS));
        assertThat(ConsoleCommandParser.parse("reload")).isEqualTo(new ConsoleCommand.Reload());
        assertThat(ConsoleCommandParser.parse("PAUSE;")).isEqualTo(new ConsoleCommand.Pause());
        assertThat(ConsoleCommandParser.parse("Resume")).isEqualTo(new ConsoleCommand.Resume());
    }

    @Test
    void cancelAndKillTakeAServerPid() {
        assertThat(ConsoleCommandParser.parse("cancel 4242;"))
                .isEqualTo(new ConsoleCommand.CancelSession(4242, Optional.empty()));
        assertThat(ConsoleCommandParser.parse("KILL\t17"))
                .isEqualTo(new ConsoleCommand.KillSession(17, Optional.empty()));
        assertThat(ConsoleCommandParser.parse("kill 17 on Reports-2;"))
                .isEqualTo(new ConsoleCommand.KillSession(17, Optional.of("Reports-2")));
        for (String wrong : List.of("CANCEL abc", "KILL -5", "kill 0", "CANCEL 99999999999")) {
            assertThatThrownBy(() -> ConsoleCommandParser.parse(wrong)).as(wrong)
                    .isInstanceOfSatisfying(ConsoleException.class, e -> assertThat(e.kind())
                            .isEqualTo(ConsoleException.Kind.SYNTAX))
                    .hasMessageContaining("server_pid");
        }
    }

    @Test
    void explainAdmissionKeepsTheStatementsAsWritten() {
        assertThat(ConsoleCommandParser.parse("explain admission select 'a;b' from t; select 2;"))
                .isEqualTo(new ConsoleCommand.ExplainAdmission(Optional.empty(), "select 'a;b' from t; select 2"));
        assertThat(ConsoleCommandParser.parse("EXPLAIN\n  ADMISSION\nselect *\nfrom a join b on a.x = b.x"))
                .isEqualTo(new ConsoleCommand.ExplainAdmission(Optional.empty(), "select *\nfrom a join b on a.x = b.x"));
        assertThatThrownBy(() -> ConsoleCommandParser.parse("explain admission ;"))
                .isInstanceOf(ConsoleException.class).hasMessageContaining("needs a statement");
    }

    /** DATABASE names the database whose indexes the estimate reads; no SQL statement starts with it. */
    @Test
    void explainAdmissionTakesADatabaseBeforeTheStatements() {
        assertThat(ConsoleCommandParser.parse("explain admission database demo select * from a, b where a.x = b.x;"))
                .isEqualTo(new ConsoleCommand.ExplainAdmission(Optional.of("demo"), "select * from a, b where a.x = b.x"));
        assertThat(ConsoleCommandParser.parse("EXPLAIN ADMISSION DATABASE \"My \"\"db\"\"\"\nselect 1"))
                .isEqualTo(new ConsoleCommand.ExplainAdmission(Optional.of("My \"db\""), "select 1"));
        assertThatThrownBy(() -> ConsoleCommandParser.parse("explain admission database demo"))
                .isInstanceOf(ConsoleException.class).hasMessageContaining("needs a statement");
    }

    /** Not the word estimated as a (utility) statement: the name is missing, and the error says so. */
    @Test
    void explainAdmissionDatabaseWithoutANameIsASyntaxError() {
        for (String withoutName : List.of("EXPLAIN ADMISSION database", "explain admission DATABASE;",
                "EXPLAIN ADMISSION DATABASE \"unterminated select 1")) {
            assertThatThrownBy(() -> ConsoleCommandParser.parse(withoutName)).as(withoutName)
                    .isInstanceOfSatisfying(ConsoleException.class, e -> assertThat(e.kind())
                            .isEqualTo(ConsoleException.Kind.SYNTAX))
                    .hasMessageStartingWith("EXPLAIN ADMISSION DATABASE needs a database name");
        }
    }

    @Test
    void setTakesEqualsOrToAndQuotedOrBareValues() {
        assertThat(ConsoleCommandParser.parse("SET tiers.small.limit = 8"))
                .isEqualTo(new ConsoleCommand.Set("tiers.small.limit", "8"));
        assertThat(ConsoleCommandParser.parse("set tiers.medium.timeout to '2min';"))
                .isEqualTo(new ConsoleCommand.Set("tiers.medium.timeout", "2min"));
        assertThat(ConsoleCommandParser.parse("SET tiers.large.timeout='it''s'"))
                .isEqualTo(new ConsoleCommand.Set("tiers.large.timeout", "it's"));
        // What drivers send when they connect is accepted and ignored.
        assertThat(ConsoleCommandParser.parse("SET application_name = 'PostgreSQL JDBC Driver'"))
                .isEqualTo(new ConsoleCommand.ClientSet("application_name"));
        assertThat(ConsoleCommandParser.parse("SET extra_float_digits = 3"))
                .isEqualTo(new ConsoleCommand.ClientSet("extra_float_digits"));
    }

    @Test
    void refreshCatalogsTakesAnOptionalDatabaseName() {
        assertThat(ConsoleCommandParser.parse("refresh catalogs;"))
                .isEqualTo(new ConsoleCommand.RefreshCatalogs(Optional.empty()));
        assertThat(ConsoleCommandParser.parse("REFRESH CATALOGS demo"))
                .isEqualTo(new ConsoleCommand.RefreshCatalogs(Optional.of("demo")));
        assertThat(ConsoleCommandParser.parse("Refresh Catalogs \"My \"\"db\"\"\""))
                .isEqualTo(new ConsoleCommand.RefreshCatalogs(Optional.of("My \"db\"")));
    }

    @Test
    void anythingElseIsASyntaxErrorListingTheCommands() {
        for (String wrong : new String[] {"select 1", "SHOW", "SHOW TABLES", "SHOW TIERS QUEUE", "PAUSE NOW",
                "SET tiers.small.limit", "VACUUM", "REFRESH", "REFRESH CATALOGS a b"}) {
            assertThatThrownBy(() -> ConsoleCommandParser.parse(wrong)).as(wrong)
                    .isInstanceOfSatisfying(ConsoleException.class, e -> {
                        assertThat(e.kind()).isEqualTo(ConsoleException.Kind.SYNTAX);
                        assertThat(e.detail()).startsWith("Valid commands: SHOW TIERS, SHOW QUEUE, SHOW STATEMENTS, SHOW STATS")
                                .contains("SET tiers.<small|medium|large>.<field> = <value>", "RELOAD", "RESUME",
                                        "REFRESH CATALOGS [<database>]");
                    });
        }
        assertThatThrownBy(() -> ConsoleCommandParser.parse("show tiers; show queue"))
                .hasMessage("the admin console runs one command per query");
        assertThatThrownBy(() -> ConsoleCommandParser.parse("drop table sales"))
                .hasMessage("unknown admin console command: \"drop table sales\"");
    }
}
