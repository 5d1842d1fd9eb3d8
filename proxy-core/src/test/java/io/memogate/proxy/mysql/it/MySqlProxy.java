package io.memogate.proxy.mysql.it;

import io.memogate.proxy.admission.AdmissionHook;
import io.memogate.proxy.admission.AdmissionRouting;
import io.memogate.proxy.admission.ImmediateAdmission;
import io.memogate.proxy.cli.RunningProxy;
import io.memogate.proxy.config.AdminConfig;
import io.memogate.proxy.config.AdminHttpConfig;
import io.memogate.proxy.config.BackendConfig;
import io.memogate.proxy.config.BackendTlsConfig;
import io.memogate.proxy.config.TlsMode;
import io.memogate.proxy.config.LimitsConfig;
import io.memogate.proxy.config.ListenerConfig;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.config.Protocol;
import io.memogate.proxy.config.ServerTlsConfig;
import io.memogate.proxy.mysql.MySqlWing;
import io.memogate.proxy.mysql.MySqlServer;
import io.memogate.proxy.server.ProxyServer;
import io.memogate.proxy.testing.ProxySessions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A proxy with one MySQL listener on an ephemeral port, relaying to the private MariaDB, with the admission
 * hook a test scripts: the real {@link ProxyServer} with the MySQL wing, closed by the test.
 */
final class MySqlProxy implements AutoCloseable {

    private final ProxyServer server;

    private MySqlProxy(ProxyServer server) {
        this.server = server;
    }

    static MySqlProxy to(PrivateMariaDb db) throws InterruptedException {
        return to(db, new ImmediateAdmission(), LimitsConfig.DEFAULTS.maxMessageBytes());
    }

    static MySqlProxy to(PrivateMariaDb db, AdmissionHook hook) throws InterruptedException {
        return to(db, hook, LimitsConfig.DEFAULTS.maxMessageBytes());
    }

    static MySqlProxy to(PrivateMariaDb db, AdmissionHook hook, int maxMessageBytes) throws InterruptedException {
        return toPort(db.port(), hook, maxMessageBytes);
    }

    /** A proxy to whatever listens on {@code port} of 127.0.0.1, or nothing. */
    static MySqlProxy toPort(int port, AdmissionHook hook, int maxMessageBytes) throws InterruptedException {
        return start("127.0.0.1", port, Optional.empty(), BackendTlsConfig.of(TlsMode.DISABLE), hook, maxMessageBytes);
    }

    /** A proxy letting everything through to the server at {@code host:port} (a container's, say). */
    static MySqlProxy toServer(String host, int port) throws InterruptedException {
        return start(host, port, Optional.empty(), BackendTlsConfig.of(TlsMode.DISABLE), new ImmediateAdmission(),
                LimitsConfig.DEFAULTS.maxMessageBytes());
    }

    /** A proxy whose listener has {@code listenerTls}, reaching the server as {@code backendTls} says. */
    static MySqlProxy withTls(PrivateMariaDb db, Optional<ServerTlsConfig> listenerTls, BackendTlsConfig backendTls,
                              AdmissionHook hook) throws InterruptedException {
        return start("127.0.0.1", db.port(), listenerTls, backendTls, hook, LimitsConfig.DEFAULTS.maxMessageBytes());
    }

    private static MySqlProxy start(String host, int port, Optional<ServerTlsConfig> listenerTls,
                                    BackendTlsConfig backendTls, AdmissionHook hook, int maxMessageBytes)
            throws InterruptedException {
        BackendConfig backend = new BackendConfig("maria", host, port, List.of(), true, backendTls);
        MemogateConfig config = new MemogateConfig(
                List.of(new ListenerConfig("127.0.0.1", 0, listenerTls, Protocol.MYSQL)), List.of(backend),
                LimitsConfig.DEFAULTS.withMaxMessageBytes(maxMessageBytes));
        return new MySqlProxy(ProxyServer.start(config, Map.of(Protocol.MYSQL, MySqlWing.FACTORY),
                AdmissionRouting.uniform(hook, MySqlServer.defaultSupport())));
    }

    /**
     * The proxy {@code memogate run} starts for a configuration with one {@code mysql} listener on an ephemeral
     * port in front of {@code db}: gateways on, metrics on a free port, the last {@code statementRecords}
     * admission decisions kept.
     */
    static RunningProxy served(PrivateMariaDb db, int statementRecords) throws Exception {
        return served(db, statementRecords, new String[0]);
    }

    /** The same, {@code consoleUsers} in admin.users: they may use the admin console, schema "memogate". */
    static RunningProxy served(PrivateMariaDb db, int statementRecords, String... consoleUsers) throws Exception {
        return served(db, ListenerConfig.of("127.0.0.1", 0).withProtocol(Protocol.MYSQL),
                BackendTlsConfig.of(TlsMode.DISABLE), statementRecords, consoleUsers);
    }

    /** The same with {@code listener} (its TLS, say), reaching the server as {@code backendTls} says. */
    static RunningProxy served(PrivateMariaDb db, ListenerConfig listener, BackendTlsConfig backendTls,
                               int statementRecords, String... consoleUsers) throws Exception {
        BackendConfig backend = new BackendConfig("maria", "127.0.0.1", db.port(), List.of(), true, backendTls);
        MemogateConfig config = MemogateConfig.of(backend)
                .withListeners(listener)
                .withAdmin(new AdminConfig(AdminHttpConfig.of("127.0.0.1", 0)).withUsers(consoleUsers));
        return RunningProxy.start(config.withAdmission(config.admission().withStatementRecords(statementRecords)));
    }

    int port() {
        return server.port();
    }

    ProxyServer server() {
        return server;
    }

    /**
     * A mariadb-java-client connection through the proxy; extra options go in its URL ({@code useServerPrepStmts=true}).
     * Like Connector/J's, it may ask a MySQL server for its RSA key: caching_sha2_password's full login without TLS.
     */
    Connection mariadb(String user, String password, String options) throws SQLException {
        return mariadbWithSsl("disable", user, password, options);
    }

    /** The same with the driver's {@code sslMode} ({@code trust}, {@code verify-ca}, ...). */
    Connection mariadbWithSsl(String sslMode, String user, String password, String options) throws SQLException {
        return DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + port() + "/" + PrivateMariaDb.DATABASE
                + "?sslMode=" + sslMode + "&allowPublicKeyRetrieval=true&connectTimeout=10000&socketTimeout=60000"
                + (options.isEmpty() ? "" : "&" + options), user, password);
    }

    Connection mariadb(String options) throws SQLException {
        return mariadb(PrivateMariaDb.USER, PrivateMariaDb.PASSWORD, options);
    }

    /** A MySQL Connector/J connection through the proxy. */
    Connection connectorJ(String user, String password, String options) throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + port() + "/" + PrivateMariaDb.DATABASE
                + "?sslMode=DISABLED&allowPublicKeyRetrieval=true&connectTimeout=10000&socketTimeout=60000"
                + (options.isEmpty() ? "" : "&" + options), user, password);
    }

    Connection connectorJ(String options) throws SQLException {
        return connectorJ(PrivateMariaDb.USER, PrivateMariaDb.PASSWORD, options);
    }

    /** Waits until a session of the proxy is in {@code state}, as SHOW CLIENTS says it ("waiting for admission"). */
    void awaitSessionIn(String state) throws InterruptedException {
        ProxySessions.awaitSessionIn(server, state);
    }

    void awaitSessionCount(int count) throws InterruptedException {
        ProxySessions.awaitSessionCount(server, count);
    }

    @Override
    public void close() {
        server.close();
    }
}
