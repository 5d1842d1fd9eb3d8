package io.memogate.proxy.it;

import io.memogate.proxy.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** What a server process is doing, from pg_stat_activity, for tests that wait until it gets somewhere. */
final class ServerActivity {

    private ServerActivity() {
    }

    /**
     * The wait event of server process {@code pid}, as {@code type:event} ({@code Lock:advisory},
     * {@code Timeout:PgSleep}); empty while it does not wait or is gone.
     */
    static String waitEvent(EmbeddedPostgres pg, String database, int pid) {
        try (Connection connection = pg.connect(database);
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("select wait_event_type || ':' || wait_event"
                        + " from pg_stat_activity where pid = " + pid)) {
            return rows.next() && rows.getString(1) != null ? rows.getString(1) : "";
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
