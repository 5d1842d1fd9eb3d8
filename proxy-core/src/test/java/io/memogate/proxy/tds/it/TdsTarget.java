package io.memogate.proxy.tds.it;

import io.memogate.proxy.postgres.embedded.SelfSignedCertificate;
import java.io.IOException;
import java.util.Optional;

/**
 * What the TDS tests put behind the proxy: the test TDS server, or a real SQL Server when one is named by the
 * system property {@code memogate.test.sqlserver} or the environment variable {@code MEMOGATE_TEST_SQLSERVER}
 * ({@code host:port}, with {@code MEMOGATE_TEST_SQLSERVER_USER} / {@code _PASSWORD} / {@code _DATABASE}; its Force
 * Encryption off), or {@code docker}: the mcr.microsoft.com/mssql/server:2022-latest image, started once for the
 * test JVM where a Docker engine runs ({@link SqlServerContainer}). Checks of what the server received run against
 * the test TDS server only.
 */
final class TdsTarget implements AutoCloseable {

    final String host;
    final int port;
    final String user;
    final String password;
    final String database;
    /** Empty against a real server. */
    final Optional<TdsTestServer> testServer;

    private TdsTarget(String host, int port, String user, String password, String database,
                      Optional<TdsTestServer> testServer) {
        this.host = host;
        this.port = port;
        this.user = user;
        this.password = password;
        this.database = database;
        this.testServer = testServer;
    }

    /** The real server named, else a new test TDS server. */
    static TdsTarget open() throws IOException {
        return open(null, null);
    }

    /** The real server named (with whatever encryption it has), else a test TDS server encrypting as said. */
    static TdsTarget open(TdsTestServer.Encryption encryption, SelfSignedCertificate certificate) throws IOException {
        Optional<String> named = Optional.ofNullable(System.getProperty("memogate.test.sqlserver"))
                .or(() -> Optional.ofNullable(System.getenv("MEMOGATE_TEST_SQLSERVER")));
        if (named.isPresent() && named.get().equals("docker")) {
            return container();
        }
        if (named.isPresent()) {
            String[] hostPort = named.get().split(":");
            return new TdsTarget(hostPort[0], Integer.parseInt(hostPort[1]), env("MEMOGATE_TEST_SQLSERVER_USER", "sa"),
                    env("MEMOGATE_TEST_SQLSERVER_PASSWORD", ""), env("MEMOGATE_TEST_SQLSERVER_DATABASE", "master"),
                    Optional.empty());
        }
        TdsTestServer server = encryption == null ? TdsTestServer.start()
                : TdsTestServer.encrypting(encryption, certificate);
        return new TdsTarget("127.0.0.1", server.port(), TdsTestServer.USER, TdsTestServer.PASSWORD, "demo",
                Optional.of(server));
    }

    /** SQL Server in a container, shared by the test JVM; the test is skipped, saying why, without a Docker engine. */
    static TdsTarget container() {
        SqlServerContainer.Running server = SqlServerContainer.shared();
        return new TdsTarget(server.host(), server.port(), "sa", SqlServerContainer.SA_PASSWORD, "master",
                Optional.empty());
    }

    private static String env(String name, String otherwise) {
        return Optional.ofNullable(System.getenv(name)).orElse(otherwise);
    }

    /** The test TDS server, for checks of what it received; the test is skipped, saying why, against a real one. */
    TdsTestServer recording() {
        org.junit.jupiter.api.Assumptions.assumeTrue(testServer.isPresent(),
                "checks what the test TDS server recorded; the server named here is a real one");
        return testServer.get();
    }

    @Override
    public void close() throws IOException {
        if (testServer.isPresent()) {
            testServer.get().close();
        }
    }
}
