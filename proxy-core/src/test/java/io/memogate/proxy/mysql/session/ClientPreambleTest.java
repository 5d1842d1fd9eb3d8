package io.memogate.proxy.mysql.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.proxy.admin.ResultTable;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What drivers send at connect is answered by the MySQL console; console commands are not. */
class ClientPreambleTest {

    private final ClientPreamble preamble = new ClientPreamble();

    @Test
    void sessionSettingsAreAnOkAndConsoleSettingsGoToTheConsole() {
        assertThat(preamble.answer("SET autocommit=1")).get().satisfies(ok -> assertThat(ok.table()).isEmpty());
        assertThat(preamble.answer("set names utf8mb4")).isPresent();
        assertThat(preamble.answer("SET @@session.sql_mode = ''")).isPresent();
        assertThat(preamble.answer("/* mysql-connector-j-9.5.0 */ SET character_set_results = NULL")).isPresent();
        assertThat(preamble.answer("SET tiers.small.limit = 4")).isEmpty();
        assertThat(preamble.answer("SHOW TIERS")).isEmpty();
        assertThat(preamble.answer("SELECT 1")).isEmpty();
    }

    @Test
    void systemVariablesAreOneRowUnderTheirNamesOrAliases() {
        ResultTable version = preamble.answer("select @@version_comment limit 1").orElseThrow().table().orElseThrow();
        assertThat(version.columns()).containsExactly("@@version_comment");
        assertThat(version.rows()).containsExactly(List.of("Memogate admin console"));

        ResultTable connectorJ = preamble.answer("/* mysql-connector-j */ SELECT @@session.auto_increment_increment AS "
                + "auto_increment_increment, @@character_set_client AS character_set_client, @@license AS license")
                .orElseThrow().table().orElseThrow();
        assertThat(connectorJ.columns()).containsExactly("auto_increment_increment", "character_set_client", "license");
        assertThat(connectorJ.rows().getFirst()).containsExactly("1", "utf8mb4", null);
    }
}
