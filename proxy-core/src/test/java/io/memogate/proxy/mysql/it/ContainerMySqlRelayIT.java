package io.memogate.proxy.mysql.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.mysql.MySQLContainer;

/**
 * The relay contract against MySQL 8.4 (the official mysql:8.4 image), for machines with a Docker engine, and
 * MySQL's own login: caching_sha2_password, whose first login of a user (the full path: the server's RSA key asked
 * for and the password sent encrypted with it, since the legs here have no TLS) and later ones (the fast path, a
 * scramble checked against the server's cache) pass through the proxy's opaque relay of the authentication
 * exchange. Skipped, with the reason, where no Docker engine is reachable (these build machines have only the
 * client).
 */
class ContainerMySqlRelayIT extends MySqlRelayContract {

    private static final String SHA2_USER = "memo_sha2";
    private static final String SHA2_PASSWORD = "sha2-secret";

    private static MySQLContainer container;

    @BeforeAll
    static void startContainer() {
        assumeTrue(DockerClientFactory.instance().isDockerAvailable(),
                "no Docker engine is reachable: the mysql:8.4 container suite is skipped");
        container = new MySQLContainer("mysql:8.4").withDatabaseName(PrivateMariaDb.DATABASE)
                .withUsername(PrivateMariaDb.USER).withPassword(PrivateMariaDb.PASSWORD);
        container.start();
    }

    @AfterAll
    static void stopContainer() {
        if (container != null) {
            container.stop();
        }
    }

    @Override
    protected String serverHost() {
        return container.getHost();
    }

    @Override
    protected int serverPort() {
        return container.getMappedPort(MySQLContainer.MYSQL_PORT);
    }

    /** As root, straight to the server (the image gives root the user's password). */
    private static void asRoot(String... statements) throws SQLException {
        try (Connection root = DriverManager.getConnection(container.getJdbcUrl()
                + "?allowPublicKeyRetrieval=true&sslMode=DISABLED", "root", container.getPassword());
             Statement statement = root.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    @Test
    void cachingSha2LoginsTakeTheFullPathThenTheFastOneThroughTheProxy() throws Exception {
        asRoot("DROP USER IF EXISTS '" + SHA2_USER + "'@'%'",
                "CREATE USER '" + SHA2_USER + "'@'%' IDENTIFIED WITH caching_sha2_password BY '" + SHA2_PASSWORD + "'");
        for (Driver driver : Driver.values()) {
            // Empties the server's cache of checked passwords: the next login takes the full path, the one after
            // it the fast path.
            asRoot("FLUSH PRIVILEGES");
            for (String path : List.of("full", "fast")) {
                try (Connection connection = driver.connect(proxy, SHA2_USER, SHA2_PASSWORD);
                     ResultSet who = connection.createStatement().executeQuery("SELECT CURRENT_USER()")) {
                    assertThat(who.next()).as(driver + ", " + path + " path").isTrue();
                    assertThat(who.getString(1)).startsWith(SHA2_USER + "@");
                }
            }
            assertThatThrownBy(() -> driver.connect(proxy, SHA2_USER, "wrong").close()).as(driver.name())
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1045));
        }
    }

    private enum Driver {
        CONNECTOR_J, MARIADB;

        Connection connect(MySqlProxy proxy, String user, String password) throws SQLException {
            return this == CONNECTOR_J ? proxy.connectorJ(user, password, "") : proxy.mariadb(user, password, "");
        }
    }
}
