package io.memogate.proxy.it;

import static io.memogate.proxy.it.ConsoleClient.failure;
import static io.memogate.proxy.it.ConsoleClient.row;
import static io.memogate.proxy.it.ConsoleClient.rows;
import static io.memogate.proxy.it.ConsoleClient.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.broker.gateway.Tier;
import io.memogate.estimator.postgres.MemoryCoefficients;
import io.memogate.proxy.admission.CatalogState;
import io.memogate.proxy.admission.ServerCatalogs;
import io.memogate.proxy.cli.RunningProxy;
import io.memogate.proxy.config.ConfigLoader;
import io.memogate.proxy.postgres.CurrentEstimator;
import io.memogate.proxy.postgres.calibrate.CoefficientsFile;
import io.memogate.proxy.postgres.embedded.DemoSchema;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import io.memogate.proxy.postgres.embedded.TestUsers;
import io.memogate.proxy.testing.Await;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.util.PSQLException;

/**
 * Reloading the configuration file of a running proxy, from the console's RELOAD and from a change of
 * the file: what can change live does, at once, for open sessions too; routing changes for new
 * sessions; what needs a restart is said and not done; a file that does not validate, or is gone,
 * changes nothing and says why.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class ReloadIT {

    private static final String ADMIN = TestUsers.SCRAM_USER;
    private static final String PASSWORD = TestUsers.SCRAM_PASSWORD;

    /** The broker section that has catalogs read. */
    private static final String MONITOR = """
            broker:
              monitor: { user: %s, password: %s }
            """.formatted(DemoSchema.MONITOR, DemoSchema.MONITOR_PASSWORD);

    @TempDir
    Path dir;

    private RunningProxy proxy;

    @AfterEach
    void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    /** A configuration file; {@code extra} is appended (an admission or limits section, ...). */
    private Path write(EmbeddedPostgres pg, String listenerPort, int backendPort, String users, String watch,
                       String extra) throws IOException {
        return replace(dir.resolve("memogate.yaml"), """
                listeners:
                  - host: 127.0.0.1
                    port: %s
                backends:
                  - name: main
                    host: %s
                    port: %d
                    tls: { mode: disable }
                limits:
                  shutdownTimeout: 1s
                admin:
                  http: { port: 0 }
                  users: [%s]
                  watchInterval: %s
                """.formatted(listenerPort, pg.host(), backendPort, users, watch) + extra);
    }

    /**
     * Replaces the file in one step, as editors and configuration tools do: the watcher never reads it
     * half written.
     */
    private static Path replace(Path file, String text) throws IOException {
        Path next = file.resolveSibling(file.getFileName() + ".new");
        Files.writeString(next, text);
        return Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static String tiers(int smallLimit, String waitNotice) {
        return """
                admission:
                  cpus: 1
                  waitNotice: %s
                  tiers:
                    small: { limit: %d }
                """.formatted(waitNotice, smallLimit);
    }

    private RunningProxy start(Path file) throws Exception {
        proxy = RunningProxy.start(new ConfigLoader().load(file), Optional.of(file));
        return proxy;
    }

    private Connection console() throws SQLException {
        return ConsoleClient.connect(proxy.server().port(), ADMIN, PASSWORD);
    }

    private int smallLimit() {
        return proxy.admission().orElseThrow().all().getFirst().gateways().state(Tier.SMALL).limit();
    }

    @Test
    void reloadAppliesLiveChangesAtOnceAndListsThoseThatNeedARestart(EmbeddedPostgres pg) throws Exception {
        start(write(pg, "0", pg.port(), ADMIN, "0", tiers(1, "1s")));
        int port = proxy.server().port();
        try (Connection console = console();
                Connection open = ConsoleClient.session(port, "demo", ADMIN, PASSWORD)) {
            write(pg, "6999", pg.port(), ADMIN + ", " + TestUsers.MD5_USER, "0", tiers(3, "250ms"));

            List<Map<String, String>> changes = rows(console, "RELOAD");

            assertThat(row(changes, "setting", "admission.tiers.small.limit")).containsEntry("old", "1")
                    .containsEntry("new", "3").containsEntry("applied", "live");
            assertThat(row(changes, "setting", "admission.waitNotice")).containsEntry("new", "250ms")
                    .containsEntry("applied", "live");
            assertThat(row(changes, "setting", "admin.users")).containsEntry("new", ADMIN + ", " + TestUsers.MD5_USER);
            assertThat(row(changes, "setting", "listeners[0].port")).containsEntry("old", "0").containsEntry("new", "6999")
                    .containsEntry("applied", "requires restart (not applied)");
            assertThat(changes).hasSize(4);

            assertThat(smallLimit()).isEqualTo(3);
            assertThat(row(rows(console, "SHOW TIERS"), "tier", "small")).containsEntry("limit", "3");
            assertThat(row(rows(console, "SHOW CONFIG"), "key", "listeners[0].port"))
                    .as("what needs a restart keeps its running value").containsEntry("value", "0");
            assertThat(proxy.server().port()).isEqualTo(port);
            assertThat(values(console, "SHOW STATS")).containsEntry("config_reloads", "1");
            // The new admin may log in now, no restart; the open session never noticed.
            try (Connection second = ConsoleClient.connect(port, TestUsers.MD5_USER, TestUsers.MD5_PASSWORD)) {
                assertThat(rows(second, "SHOW TIERS")).hasSize(3);
            }
            assertQueryWorks(open);
            assertThat(rows(console, "RELOAD")).as("nothing new the second time").singleElement()
                    .satisfies(row -> assertThat(row).containsEntry("setting", "listeners[0].port"));
        }
    }

    /** A new calibration written over the coefficients file reaches the estimator on RELOAD. */
    @Test
    void reloadBringsNewEstimatorCoefficientsIntoForce(EmbeddedPostgres pg) throws Exception {
        Path coefficients = dir.resolve("coefficients.yaml");
        CoefficientsFile.write(coefficients, new MemoryCoefficients(1000, 100, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), List.of("first"));
        start(write(pg, "0", pg.port(), ADMIN, "0", tiers(1, "1s") + "estimator: { coefficients: coefficients.yaml }\n"));
        String chain = "explain admission select * from a, b, c where a.x = b.x and b.y = c.y"; // 4 pairs, 3 relations
        try (Connection console = console()) {
            assertThat(rows(console, chain).get(0)).containsEntry("estimated_bytes", "1430");

            CoefficientsFile.write(coefficients, new MemoryCoefficients(2000, 200, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), List.of("second"));
            List<Map<String, String>> changes = rows(console, "RELOAD");

            assertThat(row(changes, "setting", "estimator.coefficients")).containsEntry("applied", "live")
                    .containsEntry("new", coefficients + " (2000, 200, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)");
            assertThat(rows(console, chain).get(0)).containsEntry("estimated_bytes", "2800");
            assertThat(((CurrentEstimator) proxy.admission().orElseThrow().all().getFirst().estimator()).coefficients())
                    .isEqualTo(new MemoryCoefficients(2000, 200, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
        }
    }

    @Test
    void aFileThatDoesNotValidateIsRefusedWithItsProblemsAndNothingChanges(EmbeddedPostgres pg) throws Exception {
        Path file = start(write(pg, "0", pg.port(), ADMIN, "0", tiers(1, "1s"))).reloader().file().orElseThrow();
        try (Connection console = console()) {
            Files.writeString(file, Files.readString(file).replace("small: { limit: 1 }", "small: { limit: 0, speed: 9 }"));

            PSQLException refused = failure(console, "RELOAD");

            assertThat(refused.getSQLState()).isEqualTo("F0000");
            assertThat(refused.getServerErrorMessage().getMessage()).isEqualTo("the configuration file " + file
                    + " is not valid; the running configuration stays");
            assertThat(refused.getServerErrorMessage().getDetail())
                    .contains("admission.tiers.small: unknown field 'speed'")
                    .contains("admission.tiers.small.limit must be at least 1, was 0");
            assertThat(smallLimit()).isEqualTo(1);
            assertThat(values(console, "SHOW STATS")).containsEntry("config_reloads_refused", "1");
            try (Connection session = ConsoleClient.session(proxy.server().port(), "demo", ADMIN, PASSWORD)) {
                assertQueryWorks(session);
            }
        }
    }

    @Test
    void aRemovedFileIsRefusedAndTheProxyGoesOnWithWhatItHas(EmbeddedPostgres pg) throws Exception {
        Path file = start(write(pg, "0", pg.port(), ADMIN, "0", tiers(2, "1s"))).reloader().file().orElseThrow();
        try (Connection console = console()) {
            Files.delete(file);

            PSQLException refused = failure(console, "reload;");

            assertThat(refused.getSQLState()).isEqualTo("F0000");
            assertThat(refused.getServerErrorMessage().getMessage()).isEqualTo("the configuration file " + file
                    + " cannot be read; the running configuration stays");
            assertThat(refused.getServerErrorMessage().getDetail()).isEqualTo("file not found: " + file.toAbsolutePath());
            assertThat(smallLimit()).isEqualTo(2);
            try (Connection session = ConsoleClient.session(proxy.server().port(), "demo", ADMIN, PASSWORD)) {
                assertQueryWorks(session);
            }
        }
    }

    @Test
    void aChangedFileIsReloadedWithoutBeingAskedAndABadOrMissingOneChangesNothing(EmbeddedPostgres pg) throws Exception {
        Path file = start(write(pg, "0", pg.port(), ADMIN, "100ms", tiers(1, "1s"))).reloader().file().orElseThrow();
        write(pg, "0", pg.port(), ADMIN, "100ms", tiers(2, "1s"));
        Await.until("the changed file is reloaded: small limit 2", () -> smallLimit() == 2);

        Files.delete(file);
        Await.until("the missing file is refused", () -> proxy.reloader().statistics().refused() == 1);
        replace(file, "backends: [this is not a mapping]\n");
        Await.until("the bad file is refused", () -> proxy.reloader().statistics().refused() == 2);
        assertThat(smallLimit()).isEqualTo(2);

        write(pg, "0", pg.port(), ADMIN, "100ms", tiers(4, "1s"));
        Await.until("the fixed file is reloaded", () -> proxy.reloader().statistics().reloads() == 2);
        assertThat(smallLimit()).isEqualTo(4);
        assertThat(proxy.reloader().statistics().refused()).as("each bad state reported once").isEqualTo(2);
    }

    @Test
    void backendChangesApplyToNewSessionsWhileOpenOnesKeepTheirServer(EmbeddedPostgres pg) throws Exception {
        start(write(pg, "0", pg.port(), ADMIN, "0", tiers(1, "1s")));
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        int port = proxy.server().port();
        try (Connection console = console(); Connection open = ConsoleClient.session(port, "demo", ADMIN, PASSWORD)) {
            write(pg, "0", closedPort, ADMIN, "0", tiers(1, "1s"));

            assertThat(row(rows(console, "RELOAD"), "setting", "backends[0].port"))
                    .containsEntry("new", String.valueOf(closedPort)).containsEntry("applied", "new sessions");

            assertQueryWorks(open);
            assertThatThrownBy(() -> ConsoleClient.session(port, "demo", ADMIN, PASSWORD))
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> {
                        assertThat(((SQLException) e).getSQLState()).isEqualTo("08001");
                        assertThat(e.getMessage()).contains(":" + closedPort);
                    });

            write(pg, "0", pg.port(), ADMIN, "0", tiers(1, "1s"));
            rows(console, "RELOAD");
            try (Connection again = ConsoleClient.session(port, "demo", ADMIN, PASSWORD)) {
                assertQueryWorks(again);
            }
        }
    }

    /**
     * A database's index catalog, and with it its roles' planner settings, is read from the server the
     * database is routed to now: here the backend's port is corrected by a reload before the first read.
     */
    @Test
    void aDatabasesCatalogIsReadWhereTheReloadedRoutingSendsIt(EmbeddedPostgres pg) throws Exception {
        int closedPort = closedPort();
        start(write(pg, "0", closedPort, ADMIN, "0", tiers(1, "1s") + MONITOR));
        write(pg, "0", pg.port(), ADMIN, "0", tiers(1, "1s") + MONITOR);
        proxy.reloader().reload("test");
        Await.until("the reload is done", () -> proxy.reloader().statistics().reloads() == 1);
        try (Connection console = console()) {
            rows(console, "EXPLAIN ADMISSION DATABASE demo select 1"); // waits for the first read
            assertThat(row(rows(console, "SHOW CATALOGS"), "database", "demo")).containsEntry("state", "read");
        }
    }

    /**
     * A catalog read where a database was routed before a reload (here it failed: nothing listens there) is
     * read again at once from where the reload routes it, not at the retry 30 s later or the refresh.
     */
    @Test
    void aReloadThatReroutesADatabaseReadsItsCatalogAgainAtOnce(EmbeddedPostgres pg) throws Exception {
        int closedPort = closedPort();
        start(write(pg, "0", closedPort, ADMIN, "0", tiers(1, "1s") + MONITOR));
        // No console yet: its logins go to the backend, which is not there.
        ServerCatalogs catalogs = proxy.admission().orElseThrow().all().getFirst().catalogs();
        catalogs.whenRead("demo").get(30, TimeUnit.SECONDS);
        assertThat(catalogs.state("demo")).hasValueSatisfying(state -> assertThat(state.state()).isEqualTo("failed"));

        write(pg, "0", pg.port(), ADMIN, "0", tiers(1, "1s") + MONITOR);
        proxy.reloader().reload("test");
        Await.until("demo's catalog read again, well before the retry", Duration.ofSeconds(10),
                () -> catalogs.state("demo").map(CatalogState::state).orElse("").equals("read"));
        try (Connection console = console()) {
            assertThat(row(rows(console, "SHOW CATALOGS"), "database", "demo")).containsEntry("state", "read");
        }
    }

    @Test
    void showBackendsKeepsABackendARenameRemovedWhileASessionUsesIt(EmbeddedPostgres pg) throws Exception {
        Path file = write(pg, "0", pg.port(), ADMIN, "0", tiers(1, "1s"));
        start(file);
        try (Connection console = console();
                Connection open = ConsoleClient.session(proxy.server().port(), "demo", ADMIN, PASSWORD)) {
            replace(file, Files.readString(file).replace("name: main", "name: renamed"));
            assertThat(row(rows(console, "RELOAD"), "setting", "backends[0].name")).containsEntry("new", "renamed");

            List<Map<String, String>> backends = rows(console, "SHOW BACKENDS");
            assertThat(backends).extracting(backend -> backend.get("backend")).containsExactly("renamed", "main");
            assertThat(row(backends, "backend", "renamed")).containsEntry("host", pg.host())
                    .containsEntry("sessions", "0").containsEntry("server_connections", "0");
            assertThat(row(backends, "backend", "main")).containsEntry("host", null)
                    .containsEntry("databases", "(removed from the configuration)")
                    .containsEntry("sessions", "1").containsEntry("server_connections", "1");
            assertQueryWorks(open);
        }
    }

    /** A local port nothing listens on (it was free a moment ago). */
    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static void assertQueryWorks(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery("select 42")) {
            rows.next();
            assertThat(rows.getInt(1)).isEqualTo(42);
        }
    }
}
