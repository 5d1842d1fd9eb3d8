package io.memogate.proxy.mysql.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.proxy.admission.AdmissionControl;
import io.memogate.proxy.admission.StatementRecord;
import io.memogate.proxy.cli.RunningProxy;
import io.memogate.proxy.config.AdminConfig;
import io.memogate.proxy.config.AdminHttpConfig;
import io.memogate.proxy.config.BackendConfig;
import io.memogate.proxy.config.BackendTlsConfig;
import io.memogate.proxy.config.ListenerConfig;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.config.Protocol;
import io.memogate.proxy.config.TlsMode;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Statements sent through a {@code protocol: mysql} listener with mariadb-java-client, and what the server's
 * admission recorded about each (the proxy keeps statement records for these tests).
 */
final class AdmittedThroughProxy {

    private AdmittedThroughProxy() {
    }

    /**
     * A proxy configuration for the private MariaDB behind a {@code protocol: mysql} listener on a free port, as
     * {@code memogate run} serves it, keeping the last 100 statement records.
     */
    static MemogateConfig mysqlListener(PrivateMariaDb db) {
        BackendConfig backend = new BackendConfig("maria", "127.0.0.1", db.port(), List.of(), true,
                BackendTlsConfig.of(TlsMode.DISABLE));
        MemogateConfig config = MemogateConfig.of(backend)
                .withListeners(ListenerConfig.of("127.0.0.1", 0).withProtocol(Protocol.MYSQL))
                .withAdmin(new AdminConfig(AdminHttpConfig.of("127.0.0.1", 0)));
        return config.withAdmission(config.admission().withStatementRecords(100));
    }

    /** A connection to the private MariaDB's test database through {@code proxy}. */
    static Connection connect(RunningProxy proxy) throws SQLException {
        return DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + proxy.server().port() + "/"
                + PrivateMariaDb.DATABASE + "?sslMode=disable&connectTimeout=10000&socketTimeout=120000",
                PrivateMariaDb.USER, PrivateMariaDb.PASSWORD);
    }

    /**
     * Runs {@code sql}, a {@code SELECT count(*)}, checks it answered, and returns what admission decided about
     * it: the last record of a statement counting.
     */
    static StatementRecord run(AdmissionControl admission, Statement statement, String sql) throws SQLException {
        try (ResultSet rows = statement.executeQuery(sql)) {
            assertThat(rows.next()).as("an answer to " + sql.substring(0, Math.min(200, sql.length()))).isTrue();
        }
        List<StatementRecord> records = admission.statements().snapshot();
        return records.stream().filter(r -> r.estimate().fingerprint().contains("count"))
                .reduce((first, last) -> last).orElseThrow(() -> new AssertionError("no record of " + sql
                        + " among " + records));
    }
}
