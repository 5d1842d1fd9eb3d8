package io.memogate.proxy.it;

import io.memogate.proxy.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;

/** What a server process is doing, from pg_stat_activity, for tests that wait until it gets somewhere. */
final class ServerActivity {

    private ServerActivity() {
    }

    /** Waits, up to 10 s, until a server process runs exactly {@code query}; fails the test if none does. */
    static void awaitRunning(EmbeddedPostgres pg, String database, String query) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            try (Connection connection = pg.connect(database);
                    PreparedStatement statement = connection.prepareStatement(
                            "select count(*) from pg_stat_activity where state = 'active' and query = ?")) {
                statement.setString(1, query);
                try (ResultSet rows = statement.executeQuery()) {
                    if (rows.next() && rows.getInt(1) > 0) {
                        return;
                    }
                }
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no server process ran " + query + " within 10 s");
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
