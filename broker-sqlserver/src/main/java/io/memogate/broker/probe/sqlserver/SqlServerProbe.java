package io.memogate.broker.probe.sqlserver;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.memogate.broker.probe.MemoryProbe;
import io.memogate.broker.probe.MemorySnapshot;
import io.memogate.broker.probe.ProbeException;
import io.memogate.broker.probe.ProbeFactory;
import io.memogate.broker.probe.ProbeSettings;
import io.memogate.broker.probe.jdbc.MonitoringConnection;

/**
 * The memory probe for SQL Server: one long-lived monitoring connection over java.sql (the driver is mssql-jdbc,
 * found through DriverManager by a {@code jdbc:sqlserver:} URL), reopened on the next poll after any failure.
 *
 * <p>Each poll asks the login's rights first ({@link MonitoringRights}); without VIEW SERVER STATE (2022 and later:
 * VIEW SERVER PERFORMANCE STATE) it fails, naming the grant, and the broker keeps its last good target, then the
 * static one. With them it reads the dynamic management views ({@link DmvReader}) and maps them into the broker's
 * snapshot ({@link SqlServerReading}). A release without sys.dm_exec_query_optimizer_memory_gateways (before
 * 2016) is polled without the server's gateways. What the probe falls back to is logged once each time it
 * changes: at the first poll, and after a grant, a revoke or an upgrade.
 *
 * <p>Connecting and every query are bounded by the settings' timeout (the driver's loginTimeout and socketTimeout,
 * and each statement's query timeout), so a server that stops answering fails the poll instead of hanging the
 * broker's thread.
 */
public final class SqlServerProbe implements MemoryProbe {

    /** The broker's probe for SQL Server backends. */
    public static final ProbeFactory FACTORY = SqlServerProbe::new;

    /** Shown as program_name in sys.dm_exec_sessions, so the operator tells the probe from the clients. */
    static final String APPLICATION_NAME = "memogate-broker";
    private static final Logger LOG = LoggerFactory.getLogger(SqlServerProbe.class);

    private final ProbeSettings settings;
    private final LongSupplier nanoTime;
    private final DmvReader reader;
    private final Object pollLock = new Object();
    private final MonitoringConnection connection;
    /** What the last poll fell back to (null: nothing, as before the first), to log a change once; under pollLock. */
    private String lastFallback;

    public SqlServerProbe(ProbeSettings settings, LongSupplier nanoTime) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        this.reader = new DmvReader((int) Math.ceil(settings.timeout().toMillis() / 1000.0));
        this.connection = new MonitoringConnection("SQL Server probe", settings, connectionProperties(settings),
                Exception::getMessage);
    }

    @Override
    public MemorySnapshot probe() throws ProbeException {
        synchronized (pollLock) {
            Connection open = connection.get();
            try {
                return poll(jdbc(open));
            } catch (ProbeException failure) {
                if (failure.getCause() instanceof SQLException) {
                    connection.discard(failure);
                }
                throw failure;
            }
        }
    }

    /** One poll from {@code source}: the rights, then every view. */
    MemorySnapshot poll(DmvSource source) throws ProbeException {
        long takenAt = nanoTime.getAsLong();
        try {
            MonitoringRights rights = source.rights();
            Optional<String> missing = rights.missing();
            if (missing.isPresent()) {
                report(missing);
                throw new ProbeException(missing.get() + " (" + settings.describeUrl() + ")");
            }
            DmvResults results = source.results();
            report(results.gateways().isPresent() ? Optional.empty() : Optional.of("SQL Server monitoring login ["
                    + rights.login() + "] reads no sys.dm_exec_query_optimizer_memory_gateways, which this release"
                    + " lacks (SQL Server 2016 and later have it): the server's own gateways are not shown"));
            return new SqlServerReading(takenAt, results).snapshot();
        } catch (SQLException e) {
            throw new ProbeException("SQL Server probe of " + settings.describeUrl() + " failed: " + e.getMessage(), e);
        } catch (IllegalStateException | IllegalArgumentException e) { // a result set not as the views document
            throw new ProbeException("SQL Server probe of " + settings.describeUrl() + ": " + e.getMessage(), e);
        }
    }

    /** Logs what the probe falls back to when it changes, and that it reads everything again. */
    private void report(Optional<String> fallback) {
        String now = fallback.orElse(null);
        if (Objects.equals(now, lastFallback)) {
            return;
        }
        if (now != null) {
            LOG.warn("{} ({})", now, settings.describeUrl());
        } else if (lastFallback != null) {
            LOG.info("SQL Server monitoring login {} reads every view the probe polls again ({})", settings.user(),
                    settings.describeUrl());
        }
        lastFallback = now;
    }

    private DmvSource jdbc(Connection open) {
        return new DmvSource() {
            @Override
            public MonitoringRights rights() throws SQLException {
                return MonitoringRights.of(reader.query(open, "sys.fn_my_permissions", MonitoringRights.QUERY));
            }

            @Override
            public DmvResults results() throws SQLException {
                return reader.read(open);
            }
        };
    }

    /** Closes the monitoring connection; a poll blocked on it fails at once. */
    @Override
    public void close() {
        connection.close();
    }

    private static Properties connectionProperties(ProbeSettings settings) {
        long millis = Math.max(1, settings.timeout().toMillis());
        Properties properties = new Properties();
        properties.setProperty("user", settings.user());
        if (settings.password() != null) {
            properties.setProperty("password", settings.password());
        }
        properties.setProperty("applicationName", APPLICATION_NAME);
        properties.setProperty("loginTimeout", Long.toString(Math.max(1, (millis + 999) / 1000)));
        properties.setProperty("socketTimeout", Long.toString(millis));
        return properties;
    }
}
