package io.memogate.proxy.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.proxy.admission.AdmissionControl;
import io.memogate.proxy.cli.RunningProxy;
import io.memogate.proxy.config.AdmissionConfig;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.config.RecycleConfig;
import io.memogate.proxy.it.ClientProgram.Result;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import io.memogate.proxy.postgres.embedded.TestUsers;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.postgresql.util.PSQLException;

/**
 * The process id a client is told in BackendKeyData is its server process's, as without the proxy: it
 * equals {@code pg_backend_pid()}, names the session's row in pg_stat_activity, and is what the session's
 * own notifications carry. After a recycle ({@link RecyclingProxy}) the client keeps the id it was told:
 * {@code pg_backend_pid()} then names the new process, while its own notifications still carry the told id,
 * so that a client still tells them from others', and its cancels still reach its statements.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class BackendPidIT {

    private static final String DATABASE = "demo";
    private static final String CHANNEL = "memogate_pid";

    @TempDir
    Path dir;
    private AdmissionControl control;

    @AfterEach
    void stop() {
        if (control != null) {
            control.close();
        }
    }

    private ProxyFixture recyclingProxy(EmbeddedPostgres pg) throws Exception {
        control = RecyclingProxy.admission();
        return RecyclingProxy.to(pg.host(), pg.port(), control).start();
    }

    @Test
    void pgjdbcFindsItsOwnProcessBeforeAndAfterARecycle(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = recyclingProxy(pg);
                Connection connection = proxy.connect(DATABASE, TestUsers.TRUST_USER, null);
                Connection other = pg.connect(DATABASE);
                Statement statement = connection.createStatement()) {
            int told = connection.unwrap(PGConnection.class).getBackendPID();
            assertThat(RecyclingProxy.serverPid(connection)).as("pg_backend_pid()").isEqualTo(told);
            assertThat(userOfProcess(other, told)).as("its pg_stat_activity row").isEqualTo(TestUsers.TRUST_USER);
            assertThat(ownNotificationPid(connection)).isEqualTo(told);
            ServerActivity.assertACancelEndsASleep(pg, statement);

            RecyclingProxy.join(connection);
            int server = RecyclingProxy.serverPid(connection);
            assertThat(server).as("recycled: pg_backend_pid() names the new process").isNotEqualTo(told);
            assertThat(userOfProcess(other, server)).isEqualTo(TestUsers.TRUST_USER);
            assertThat(ownNotificationPid(connection)).as("its own notification, as before").isEqualTo(told);
            assertThat(othersNotificationPid(connection, other)).as("another session's, as it came")
                    .isEqualTo(other.unwrap(PGConnection.class).getBackendPID());
            ServerActivity.assertACancelEndsASleep(pg, statement);
        }
    }

    /**
     * psql in a terminal, as a user runs it: its prompt shows the process id libpq was told (%p, PQbackendPID),
     * and it prints each notification with the process id it carries.
     */
    @Test
    void psqlFindsItsOwnProcessBeforeAndAfterARecycle(EmbeddedPostgres pg) throws Exception {
        String check = """
                SELECT 'server ' || pg_backend_pid();
                LISTEN %1$s;
                NOTIFY %1$s;
                UNLISTEN %1$s;
                """.formatted(CHANNEL);
        try (ProxyFixture proxy = recyclingProxy(pg)) {
            String psql = "psql -X -n -A -t -P pager=off -v ON_ERROR_STOP=1 -v 'PROMPT1=told %p> ' -h 127.0.0.1 -p " + proxy.port()
                    + " -U " + TestUsers.TRUST_USER + " -d " + DATABASE;
            // script(1) gives psql a terminal; what the terminal echoes of the input matches none of the patterns.
            Result result = ClientProgram.run(dir, Map.of("PGSSLMODE", "disable"),
                    List.of("script", "-q", "-e", "-c", psql, "/dev/null"),
                    check + RecyclingProxy.JOIN + ";\n" + check + "\\q\n");
            String output = result.output().replace("\r", "");
            assertThat(result.exitCode()).as(output).isZero();
            List<String> told = all(output, "told (\\d+)> ");
            List<String> servers = all(output, "server (\\d+)\n");
            List<String> notified = all(output, "Asynchronous notification \"" + CHANNEL
                    + "\" received from server process with PID (\\d+)\\.");
            assertThat(told).as(output).isNotEmpty().containsOnly(told.getFirst());
            assertThat(servers).as(output).hasSize(2);
            assertThat(servers.getFirst()).as("libpq's PQbackendPID is pg_backend_pid()").isEqualTo(told.getFirst());
            assertThat(servers.getLast()).as("recycled after the join").isNotEqualTo(told.getFirst());
            assertThat(notified).as("its own notifications, before and after").containsExactly(told.getFirst(),
                    told.getFirst());
        }
    }

    /**
     * The admin console names a recycled session by its current server process, as pg_stat_activity does:
     * SHOW CLIENTS shows it, and KILL of it ends the session.
     */
    @Test
    void theConsoleFindsARecycledSessionByItsCurrentServerProcess(EmbeddedPostgres pg) throws Exception {
        MemogateConfig config = AdminConsoleIT.config(pg)
                .withAdmission(AdmissionConfig.defaults(1).withGatewaySettings(
                        GatewaySettings.defaults(2).withStaticThreshold(1024)))
                .withRecycle(RecycleConfig.DEFAULTS.withRetainedAbove(1));
        try (RunningProxy proxy = RunningProxy.start(config);
                Connection console = ConsoleClient.connect(proxy.server().port(), TestUsers.SCRAM_USER,
                        TestUsers.SCRAM_PASSWORD);
                Connection session = ConsoleClient.session(proxy.server().port(), DATABASE, TestUsers.TRUST_USER, "")) {
            int told = session.unwrap(PGConnection.class).getBackendPID();
            RecyclingProxy.join(session);
            int server = RecyclingProxy.serverPid(session);
            assertThat(server).as("recycled").isNotEqualTo(told);
            assertThat(ConsoleClient.rows(console, "SHOW CLIENTS")).extracting(row -> row.get("server_pid"))
                    .contains(String.valueOf(server));
            assertThat(ConsoleClient.run(console, "KILL " + server)).singleElement().asString()
                    .startsWith("terminated the session of");
            assertThatThrownBy(() -> RecyclingProxy.serverPid(session)).isInstanceOfSatisfying(PSQLException.class,
                    e -> assertThat(e.getSQLState()).isEqualTo("57P01"));
        }
    }

    private static String userOfProcess(Connection observer, int pid) throws SQLException {
        try (PreparedStatement statement = observer.prepareStatement("SELECT usename FROM pg_stat_activity WHERE pid = ?")) {
            statement.setInt(1, pid);
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() ? rows.getString(1) : null;
            }
        }
    }

    /** The pid of the notification the session gets for its own NOTIFY. */
    private static int ownNotificationPid(Connection connection) throws SQLException {
        return notificationPid(connection, connection);
    }

    /** The pid of the notification the session gets for {@code notifier}'s NOTIFY. */
    private static int othersNotificationPid(Connection connection, Connection notifier) throws SQLException {
        return notificationPid(connection, notifier);
    }

    /**
     * The session listens only for as long as it waits for the notification: a session that listens holds
     * state a new process would lack, and is not recycled.
     */
    private static int notificationPid(Connection listening, Connection notifier) throws SQLException {
        try (Statement listen = listening.createStatement(); Statement notify = notifier.createStatement()) {
            listen.execute("LISTEN " + CHANNEL);
            notify.execute("NOTIFY " + CHANNEL);
            PGNotification[] received = listening.unwrap(PGConnection.class).getNotifications(10_000);
            listen.execute("UNLISTEN " + CHANNEL);
            assertThat(received).as("one notification within 10 s").hasSize(1);
            return received[0].getPID();
        }
    }

    private static List<String> all(String output, String regex) {
        Matcher matcher = Pattern.compile(regex).matcher(output);
        return matcher.results().map(match -> match.group(1)).toList();
    }
}
