package io.memogate.proxy.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.proxy.admission.Admission;
import io.memogate.proxy.admission.GatedAdmission;
import io.memogate.proxy.admission.StatementRequest;
import io.memogate.proxy.embedded.EmbeddedPostgres;
import io.memogate.proxy.embedded.EmbeddedPostgresExtension;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A simple Query long enough to be read off the event loop ({@link GatedAdmission#OFF_LOOP_CHARS}) changes its
 * session as a short one does: its SET applies to the statements after it, its PREPARE lets their EXECUTE be
 * estimated as the query it runs, and the server answers everything in order.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class LongQueryTextIT {

    @Test
    void aLongQuerysSetAndPrepareApplyToTheStatementsAfterIt(EmbeddedPostgres pg) throws Exception {
        List<StatementRequest> requests = new CopyOnWriteArrayList<>();
        String padding = " -- " + "x".repeat(GatedAdmission.OFF_LOOP_CHARS) + "\n";
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).maxMessageBytes(1 << 20)
                        .admission(request -> {
                            requests.add(request);
                            return Admission.IMMEDIATE;
                        }).start();
                Connection connection = proxy.connect("demo", "memogate", "memogate", "preferQueryMode", "simple");
                Statement statement = connection.createStatement()) {
            statement.execute("set join_collapse_limit = 3; prepare long_p as select 42" + padding);
            try (ResultSet rows = statement.executeQuery("execute long_p")) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getInt(1)).isEqualTo(42);
            }
            try (ResultSet rows = statement.executeQuery("show join_collapse_limit")) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getString(1)).as("the server's").isEqualTo("3");
            }
        }
        StatementRequest execute = requests.stream().filter(r -> r.sql().equals("execute long_p")).findFirst()
                .orElseThrow();
        assertThat(execute.settings().joinCollapseLimit()).as("what the EXECUTE is estimated with").isEqualTo(3);
        assertThat(execute.prepared().textOf("long_p")).hasValueSatisfying(
                text -> assertThat(text).startsWith("prepare long_p as select 42"));
    }
}
