package io.memogate.broker.probe.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.mysql.MySQLContainer;

import io.memogate.broker.probe.MemorySnapshot;
import io.memogate.broker.probe.ProbeSettings;

/**
 * The probe against MySQL 8.4 (the official mysql:8.4 image, performance_schema on by default), for machines with
 * a Docker engine: with PROCESS and SELECT on performance_schema it reads each connection's memory from
 * performance_schema.threads; without PROCESS it falls back to the global counters. Skipped, with the reason,
 * where no Docker engine is reachable (these build machines have only the client).
 */
class ContainerMySqlProbeIT {

    private static MySQLContainer container;

    @BeforeAll
    static void startContainer() throws SQLException {
        assumeTrue(DockerClientFactory.instance().isDockerAvailable(),
                "no Docker engine is reachable: the mysql:8.4 probe suite is skipped");
        container = new MySQLContainer("mysql:8.4").withDatabaseName("app").withUsername("app")
                .withPassword("app-secret");
        container.start();
        try (Connection root = connect("root", container.getPassword()); Statement statement = root.createStatement()) {
            statement.execute("CREATE USER mon@'%' IDENTIFIED BY 'mon'");
            statement.execute("GRANT PROCESS ON *.* TO mon@'%'");
            statement.execute("GRANT SELECT ON performance_schema.* TO mon@'%'");
            statement.execute("CREATE USER plain@'%' IDENTIFIED BY 'plain'");
            statement.execute("GRANT SELECT ON performance_schema.* TO plain@'%'");
        }
    }

    @AfterAll
    static void stopContainer() {
        if (container != null) {
            container.stop();
        }
    }

    @Test
    void withProcessReadsEachConnectionsMemoryFromPerformanceSchemaThreads() throws Exception {
        try (MySqlProbe probe = probe("mon", "mon"); Connection app = connect("app", "app-secret")) {
            long appId = connectionId(app);
            CompletableFuture<Void> sleeping = sleep(app);
            try {
                MemorySnapshot snapshot = probe.probe();
                assertThat(snapshot.version().text()).doesNotContain("MariaDB");
                assertThat(snapshot.version().number()).isGreaterThanOrEqualTo(80400);
                assertThat(snapshot.connections().ids()).contains((int) appId);
                assertThat(snapshot.memory().retainedBytesById()).containsKey((int) appId);
                assertThat(snapshot.memory().retainedBytesById().get((int) appId)).isPositive();
                assertThat(snapshot.memory().cacheBytes()).isEqualTo(variable("innodb_buffer_pool_size"));
                assertThat(snapshot.plannerSettings()).containsKeys("optimizer_search_depth", "optimizer_prune_level",
                        "optimizer_switch");
            } finally {
                kill(appId, sleeping);
            }
        }
    }

    @Test
    void withoutProcessCountsConnectionsFromStatus() throws Exception {
        try (MySqlProbe probe = probe("plain", "plain"); Connection app = connect("app", "app-secret")) {
            long appId = connectionId(app);
            CompletableFuture<Void> sleeping = sleep(app);
            try {
                MemorySnapshot snapshot = probe.probe();
                assertThat(snapshot.connections().ids()).isEmpty();
                assertThat(snapshot.memory().retainedBytesById()).isEmpty();
                assertThat(snapshot.memory().queryBytes()).isPositive();
            } finally {
                kill(appId, sleeping);
            }
        }
    }

    /** A monitor URL for MySQL's caching_sha2_password without TLS must let the driver ask for the server's key. */
    private static MySqlProbe probe(String user, String password) {
        return new MySqlProbe(new ProbeSettings("jdbc:mariadb://" + container.getHost() + ":"
                + container.getMappedPort(MySQLContainer.MYSQL_PORT) + "/?allowPublicKeyRetrieval=true", user,
                password, false, Duration.ofSeconds(10)), System::nanoTime);
    }

    private static Connection connect(String user, String password) throws SQLException {
        return DriverManager.getConnection("jdbc:mariadb://" + container.getHost() + ":"
                + container.getMappedPort(MySQLContainer.MYSQL_PORT) + "/app?allowPublicKeyRetrieval=true", user, password);
    }

    private static long variable(String name) throws SQLException {
        try (Connection root = connect("root", container.getPassword());
             ResultSet row = root.createStatement().executeQuery("SELECT @@GLOBAL." + name)) {
            row.next();
            return row.getLong(1);
        }
    }

    private static long connectionId(Connection connection) throws SQLException {
        try (ResultSet row = connection.createStatement().executeQuery("SELECT CONNECTION_ID()")) {
            row.next();
            return row.getLong(1);
        }
    }

    private static CompletableFuture<Void> sleep(Connection app) {
        return CompletableFuture.runAsync(() -> {
            try (Statement statement = app.createStatement()) {
                statement.execute("SELECT SLEEP(60)");
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static void kill(long appId, CompletableFuture<Void> sleeping) throws SQLException {
        try (Connection root = connect("root", container.getPassword())) {
            root.createStatement().execute("KILL QUERY " + appId);
        }
        sleeping.handle((done, failure) -> null).join();
    }
}
