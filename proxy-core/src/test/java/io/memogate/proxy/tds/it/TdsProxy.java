package io.memogate.proxy.tds.it;

import io.memogate.proxy.admin.ClientView;
import io.memogate.proxy.admission.AdmissionHook;
import io.memogate.proxy.admission.AdmissionRouting;
import io.memogate.proxy.admission.ImmediateAdmission;
import io.memogate.proxy.config.BackendConfig;
import io.memogate.proxy.config.BackendTdsConfig;
import io.memogate.proxy.config.BackendTlsConfig;
import io.memogate.proxy.config.LimitsConfig;
import io.memogate.proxy.config.ListenerConfig;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.config.Protocol;
import io.memogate.proxy.config.ServerTlsConfig;
import io.memogate.proxy.config.TlsMode;
import io.memogate.proxy.server.ProxyServer;
import io.memogate.proxy.tds.TdsServer;
import io.memogate.proxy.tds.TdsWing;
import io.memogate.proxy.testing.ProxySessions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A proxy with one TDS listener on an ephemeral port, relaying to a {@link TdsTarget}, with the admission hook a
 * test scripts: the real {@link ProxyServer} with the TDS wing, closed by the test.
 */
final class TdsProxy implements AutoCloseable {

    private final ProxyServer server;
    private final TdsTarget target;

    private TdsProxy(ProxyServer server, TdsTarget target) {
        this.server = server;
        this.target = target;
    }

    static TdsProxy to(TdsTarget target) throws InterruptedException {
        return to(target.port, target, new ImmediateAdmission(), LimitsConfig.DEFAULTS.maxMessageBytes());
    }

    static TdsProxy to(TdsTarget target, AdmissionHook hook) throws InterruptedException {
        return to(target.port, target, hook, LimitsConfig.DEFAULTS.maxMessageBytes());
    }

    /** A proxy to {@code port} of the target's host, with the target's login. */
    static TdsProxy to(int port, TdsTarget target, AdmissionHook hook, int maxMessageBytes) throws InterruptedException {
        return start(port, target, hook, maxMessageBytes, Optional.empty(), BackendTlsConfig.of(TlsMode.DISABLE),
                BackendTdsConfig.DEFAULT);
    }

    /** A proxy whose backend has {@code tds} and {@code backendTls}, its listener {@code listenerTls}. */
    static TdsProxy to(TdsTarget target, AdmissionHook hook, BackendTdsConfig tds, Optional<ServerTlsConfig> listenerTls,
                       BackendTlsConfig backendTls) throws InterruptedException {
        return start(target.port, target, hook, LimitsConfig.DEFAULTS.maxMessageBytes(), listenerTls, backendTls, tds);
    }

    /** A proxy whose listener has {@code listenerTls}, reaching the target with {@code backendTls}. */
    static TdsProxy withTls(TdsTarget target, Optional<ServerTlsConfig> listenerTls, BackendTlsConfig backendTls)
            throws InterruptedException {
        return start(target.port, target, new ImmediateAdmission(), LimitsConfig.DEFAULTS.maxMessageBytes(),
                listenerTls, backendTls, BackendTdsConfig.DEFAULT);
    }

    private static TdsProxy start(int port, TdsTarget target, AdmissionHook hook, int maxMessageBytes,
                                  Optional<ServerTlsConfig> listenerTls, BackendTlsConfig backendTls,
                                  BackendTdsConfig tds) throws InterruptedException {
        BackendConfig backend = new BackendConfig("sqlserver", target.host, port, List.of(), true, backendTls, tds);
        MemogateConfig config = new MemogateConfig(
                List.of(new ListenerConfig("127.0.0.1", 0, listenerTls, Protocol.TDS)), List.of(backend),
                LimitsConfig.DEFAULTS.withMaxMessageBytes(maxMessageBytes));
        return new TdsProxy(ProxyServer.start(config, Map.of(Protocol.TDS, TdsWing.FACTORY),
                AdmissionRouting.uniform(hook, TdsServer.defaultSupport())), target);
    }

    /** The sessions as SHOW CLIENTS lists them. */
    List<ClientView> clients() throws Exception {
        return server.clients().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    int port() {
        return server.port();
    }

    /** An mssql-jdbc connection through the proxy, without encryption; extra properties as {@code ;name=value}. */
    Connection connect(String properties) throws SQLException {
        return DriverManager.getConnection(url(port(), target) + properties, target.user, target.password);
    }

    /** What {@code SELECT n} answers over a new mssql-jdbc connection through the proxy. */
    int select(int n) throws SQLException {
        return select(port(), target, n);
    }

    /** The same through the proxy listening on {@code port}. */
    static int select(int port, TdsTarget target, int n) throws SQLException {
        try (Connection c = DriverManager.getConnection(url(port, target), target.user, target.password);
                Statement s = c.createStatement();
                ResultSet rows = s.executeQuery("SELECT " + n + " AS n")) {
            if (!rows.next()) {
                throw new SQLException("SELECT " + n + " answered no row");
            }
            return rows.getInt(1);
        }
    }

    /** The first column of the row {@code sql} answers; a failure (a refusal, say) unchecked, for async callers. */
    static int single(Statement statement, String sql) {
        try (ResultSet rows = statement.executeQuery(sql)) {
            if (!rows.next()) {
                throw new IllegalStateException(sql + " answered no row");
            }
            return rows.getInt(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    static String url(int port, TdsTarget target) {
        return "jdbc:sqlserver://127.0.0.1:" + port + ";databaseName=" + target.database
                + ";encrypt=false;loginTimeout=10;applicationName=memogate-tests";
    }

    /** Waits until a session of the proxy is in {@code state}, as SHOW CLIENTS says it ("waiting for admission"). */
    void awaitSessionIn(String state) throws InterruptedException {
        ProxySessions.awaitSessionIn(server, state);
    }

    /** The admin console's CANCEL or KILL for the one session waiting for admission; what the console reports. */
    Optional<String> operator(boolean kill) throws Exception {
        int spid = server.clients().toCompletableFuture().get(10, TimeUnit.SECONDS).stream()
                .filter(client -> client.state().equals("waiting for admission")).findFirst().orElseThrow()
                .serverPid();
        var outcome = kill ? server.terminate(spid, Optional.empty(), "dba from 127.0.0.1")
                : server.cancel(spid, Optional.empty(), "dba from 127.0.0.1");
        return outcome.toCompletableFuture().get(10, TimeUnit.SECONDS).done();
    }

    void awaitSessionCount(int count) throws InterruptedException {
        ProxySessions.awaitSessionCount(server, count);
    }

    @Override
    public void close() {
        server.close();
    }
}
