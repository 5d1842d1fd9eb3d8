package io.memogate.proxy.it;

import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.proxy.admission.AdmissionControl;
import io.memogate.proxy.config.RecycleConfig;
import io.memogate.proxy.metrics.GatewayMeters;
import io.memogate.proxy.postgres.PostgresServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A proxy whose sessions get a new server process after each statement the ledger counts: the limit is 1
 * byte and t0 1 kB, so every three-table catalog join ({@link #JOIN}) counts (its estimate is a few hundred
 * kB, what the ledger keeps for the connection once it is planned), and a {@code pg_backend_pid()} does not.
 */
final class RecyclingProxy {

    /** Three catalog relations: readable by every role, estimated well above t0. */
    static final String JOIN = "SELECT count(*) FROM pg_catalog.pg_class c"
            + " JOIN pg_catalog.pg_namespace n ON c.relnamespace = n.oid"
            + " JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid WHERE n.nspname = 'pg_catalog'";

    private RecyclingProxy() {}

    /** The admission whose ledger the proxy reads; the caller closes it. */
    static AdmissionControl admission() {
        GatewaySettings settings = GatewaySettings.defaults(2).withStaticThreshold(1024);
        return AdmissionControl.builder(AdmissionControl.ONLY_SERVER, PostgresServer.KIND, settings).staticTargetBytes(1L << 30)
                .gatewayListener(new GatewayMeters()).build();
    }

    /** A proxy to the server at {@code host} and {@code port} that recycles with {@code control}'s ledger. */
    static ProxyFixture.Builder to(String host, int port, AdmissionControl control) {
        return ProxyFixture.to(host, port).admission(control.hook()).admissionSupport(control.support())
                .recycle(RecycleConfig.DEFAULTS.withRetainedAbove(1));
    }

    /** The server process the session is on now, as the server says. */
    static int serverPid(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT pg_backend_pid()")) {
            rows.next();
            return rows.getInt(1);
        }
    }

    /** Runs {@link #JOIN}: the session's server process is replaced when it is next idle. */
    static long join(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(JOIN)) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
