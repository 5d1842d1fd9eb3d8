package io.memogate.proxy.postgres.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The embedded server as a client sees it: logins of every kind, TLS, the demo schema, shutdown. */
@ExtendWith(EmbeddedPostgresExtension.class)
class EmbeddedPostgresIT {

    @Test
    void scramUserRunsEveryDemoQueryOverTheDemoSchema(EmbeddedPostgres postgres) throws SQLException {
        assertThat(storedPassword(postgres, TestUsers.SCRAM_USER)).startsWith("SCRAM-SHA-256$");
        assertThat(DemoSchema.exampleQueries()).hasSizeGreaterThanOrEqualTo(2);
        try (Connection connection = postgres.connect(DemoSchema.DATABASE, TestUsers.SCRAM_USER,
                TestUsers.SCRAM_PASSWORD); Statement statement = connection.createStatement()) {
            for (String query : DemoSchema.exampleQueries()) {
                assertThat(relationsInPlan(statement, query)).as("tables scanned by %s", query)
                        .isGreaterThanOrEqualTo(16);
                try (ResultSet rows = statement.executeQuery(query)) {
                    assertThat(rows.next()).as("first row of %s", query).isTrue();
                }
            }
        }
    }

    @Test
    void md5UserLogsIn(EmbeddedPostgres postgres) throws SQLException {
        assertThat(storedPassword(postgres, TestUsers.MD5_USER)).startsWith("md5");
        assertThat(currentUser(postgres, TestUsers.MD5_USER, TestUsers.MD5_PASSWORD)).isEqualTo(TestUsers.MD5_USER);
    }

    @Test
    void trustAndCleartextPasswordUsersLogIn(EmbeddedPostgres postgres) throws SQLException {
        assertThat(currentUser(postgres, TestUsers.TRUST_USER, null)).isEqualTo(TestUsers.TRUST_USER);
        assertThat(currentUser(postgres, TestUsers.PLAIN_USER, TestUsers.PLAIN_PASSWORD))
                .isEqualTo(TestUsers.PLAIN_USER);
    }

    @Test
    void wrongPasswordIsRefusedWithInvalidPassword(EmbeddedPostgres postgres) {
        for (String user : new String[] {TestUsers.SCRAM_USER, TestUsers.MD5_USER, TestUsers.PLAIN_USER}) {
            assertThatThrownBy(() -> currentUser(postgres, user, "not-the-password"))
                    .as("login of %s", user)
                    .isInstanceOfSatisfying(SQLException.class,
                            e -> assertThat(e.getSQLState()).isEqualTo("28P01"));
        }
    }

    @Test
    void tlsIsNegotiatedWhenRequired(EmbeddedPostgres postgres) throws SQLException {
        Properties properties = credentials();
        properties.setProperty("sslmode", "require");
        assertThat(sslInUse(postgres.jdbcUrl(DemoSchema.DATABASE), properties)).isTrue();
    }

    @Test
    void certificateVerifiesForTheServerAddress(EmbeddedPostgres postgres, SelfSignedCertificate certificate)
            throws SQLException {
        Properties properties = credentials();
        properties.setProperty("sslmode", "verify-full");
        properties.setProperty("sslrootcert", certificate.certificateFile().toString());
        assertThat(sslInUse(postgres.jdbcUrl(DemoSchema.DATABASE), properties)).isTrue();
    }

    @Test
    void serverIsPostgreSql18(EmbeddedPostgres postgres) throws SQLException {
        try (Connection connection = postgres.connect("postgres");
             ResultSet rows = connection.createStatement().executeQuery("SHOW server_version_num")) {
            rows.next();
            assertThat(Integer.parseInt(rows.getString(1))).isGreaterThanOrEqualTo(180000);
        }
    }

    @Test
    void closeStopsTheServerAndRemovesItsFiles() throws Exception {
        // A server of its own: the shared one must outlive this test.
        EmbeddedPostgres postgres = EmbeddedPostgres.start(EmbeddedPostgresOptions.builder()
                .setting("join_collapse_limit", "20")
                .build());
        Path data = postgres.dataDirectory();
        Connection open = postgres.connect("postgres"); // fast shutdown must not wait for this client
        try (ResultSet rows = open.createStatement().executeQuery("SHOW join_collapse_limit")) {
            rows.next();
            assertThat(rows.getString(1)).isEqualTo("20");
        }

        postgres.close();

        assertThatThrownBy(() -> new Socket(postgres.host(), postgres.port()).close())
                .isInstanceOf(ConnectException.class);
        assertThat(data).doesNotExist();
        assertThat(postgres.logFile()).doesNotExist();
        assertThat(ProcessHandle.allProcesses()
                .filter(process -> process.info().commandLine().orElse("").contains(data.toString())))
                .isEmpty();
        assertThat(open.isValid(1)).isFalse();
        open.close();
        postgres.close(); // idempotent
    }

    @Test
    void startOnATakenPortFailsWithTheServerLogAndLeavesNothingBehind() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            EmbeddedPostgresOptions options = EmbeddedPostgresOptions.builder().port(taken.getLocalPort()).build();

            assertThatThrownBy(() -> EmbeddedPostgres.start(options))
                    .isInstanceOfSatisfying(EmbeddedPostgresException.class, e -> {
                        assertThat(e.getMessage())
                                .contains("port " + taken.getLocalPort() + " on 127.0.0.1 is in use")
                                .contains("Address already in use");
                        Matcher log = Pattern.compile("end of (\\S+postgres\\.log)").matcher(e.getMessage());
                        assertThat(log.find()).as("message names the log: %s", e.getMessage()).isTrue();
                        assertThat(Path.of(log.group(1)).getParent()).doesNotExist();
                    });
        }
    }

    private static Properties credentials() {
        Properties properties = new Properties();
        properties.setProperty("user", TestUsers.SCRAM_USER);
        properties.setProperty("password", TestUsers.SCRAM_PASSWORD);
        return properties;
    }

    private static boolean sslInUse(String url, Properties properties) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url, properties);
             ResultSet rows = connection.createStatement()
                     .executeQuery("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")) {
            rows.next();
            return rows.getBoolean(1);
        }
    }

    private static String currentUser(EmbeddedPostgres postgres, String user, String password) throws SQLException {
        try (Connection connection = postgres.connect("postgres", user, password);
             ResultSet rows = connection.createStatement().executeQuery("SELECT current_user")) {
            rows.next();
            return rows.getString(1);
        }
    }

    private static String storedPassword(EmbeddedPostgres postgres, String role) throws SQLException {
        try (Connection connection = postgres.connect("postgres");
             PreparedStatement query = connection.prepareStatement(
                     "SELECT rolpassword FROM pg_authid WHERE rolname = ?")) {
            query.setString(1, role);
            try (ResultSet rows = query.executeQuery()) {
                assertThat(rows.next()).as("role %s exists", role).isTrue();
                return rows.getString(1);
            }
        }
    }

    /** How many base relations the plan scans: the join's size as the planner saw it. */
    private static int relationsInPlan(Statement statement, String query) throws SQLException {
        try (ResultSet plan = statement.executeQuery("EXPLAIN (FORMAT JSON) " + query)) {
            plan.next();
            Matcher relation = Pattern.compile("\"Relation Name\"").matcher(plan.getString(1));
            int count = 0;
            while (relation.find()) {
                count++;
            }
            return count;
        }
    }
}
