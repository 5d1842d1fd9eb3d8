package io.memogate.proxy.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.testing.Await;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.postgresql.util.PSQLException;

/** What a server process is doing, from pg_stat_activity, for tests that wait until it gets somewhere or cancel it. */
final class ServerActivity {

    private ServerActivity() {
    }

    /** Waits until a server process runs exactly {@code query}; fails the test if none does. */
    static void awaitRunning(EmbeddedPostgres pg, String database, String query)
            throws SQLException, InterruptedException {
        try (Connection observer = pg.connect(database)) {
            awaitRunning(observer, 0, query);
        }
    }

    /**
     * Waits until server process {@code pid} (0: any) runs exactly {@code query}, seen through {@code observer},
     * a connection to the same server: a role sees the statements of its own sessions, a superuser all.
     */
    static void awaitRunning(Connection observer, int pid, String query) throws SQLException, InterruptedException {
        try (PreparedStatement running = observer.prepareStatement("select count(*) from pg_stat_activity"
                + " where state = 'active' and query = ? and (pid = ? or ? = 0)")) {
            running.setString(1, query);
            running.setInt(2, pid);
            running.setInt(3, pid);
            Await.until((pid == 0 ? "a server process" : "server process " + pid) + " runs " + query, () -> {
                try (ResultSet rows = running.executeQuery()) {
                    return rows.next() && rows.getInt(1) > 0;
                }
            });
        }
    }

    /**
     * Waits until a server process of {@code database} runs a statement whose text is {@code LIKE pattern}: a
     * multi-statement query's last part, say, which the server shows with the rest of its text.
     */
    static void awaitRunningLike(EmbeddedPostgres pg, String database, String pattern)
            throws SQLException, InterruptedException {
        try (Connection observer = pg.connect(database);
                PreparedStatement running = observer.prepareStatement("select count(*) from pg_stat_activity"
                        + " where state = 'active' and query like ?")) {
            running.setString(1, pattern);
            Await.until("a server process runs " + pattern, () -> {
                try (ResultSet rows = running.executeQuery()) {
                    return rows.next() && rows.getInt(1) > 0;
                }
            });
        }
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

    /** Waits until server process {@code pid} waits on {@code event}, as {@link #waitEvent} says it. */
    static void awaitWaitEvent(EmbeddedPostgres pg, int pid, String event) throws InterruptedException {
        Await.until("server process " + pid + " waits on " + event, () -> waitEvent(pg, "postgres", pid).equals(event));
    }

    /** Whether server process {@code pid} is still there. */
    static boolean exists(EmbeddedPostgres pg, int pid) throws SQLException {
        try (Connection connection = pg.connect("postgres");
                PreparedStatement query = connection.prepareStatement("select 1 from pg_stat_activity where pid = ?")) {
            query.setInt(1, pid);
            try (ResultSet rows = query.executeQuery()) {
                return rows.next();
            }
        }
    }

    /**
     * Runs a 30-second sleep on {@code statement} and cancels it with the driver's cancel request once the
     * server runs it, through whatever the connection goes through: the sleep must end with 57014.
     */
    static void assertACancelEndsASleep(EmbeddedPostgres pg, Statement statement) throws Exception {
        int pid;
        try (ResultSet rows = statement.executeQuery("SELECT pg_backend_pid()")) {
            rows.next();
            pid = rows.getInt(1);
        }
        CompletableFuture<Void> sleeping = CompletableFuture.runAsync(() -> {
            try {
                statement.execute("SELECT pg_sleep(30)");
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
        try (Connection observer = pg.connect("demo")) {
            awaitRunning(observer, pid, "SELECT pg_sleep(30)");
        }
        statement.cancel();
        assertThatThrownBy(() -> sleeping.get(10, TimeUnit.SECONDS)).rootCause()
                .isInstanceOfSatisfying(PSQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("57014"));
    }
}
