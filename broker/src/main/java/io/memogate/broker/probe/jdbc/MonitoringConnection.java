package io.memogate.broker.probe.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Objects;
import java.util.Properties;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.memogate.broker.probe.ProbeException;
import io.memogate.broker.probe.ProbeSettings;

/**
 * A probe's one long-lived monitoring connection over java.sql, whatever the server: opened at the first poll
 * through DriverManager (the driver is the probe module's own), kept between polls, dropped after a failed one
 * so that the next poll opens a new one, and closed from any thread, a poll blocked on it then failing at once.
 * The probe serializes its polls; only {@link #close()} comes from another thread.
 */
public final class MonitoringConnection implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MonitoringConnection.class);

    private final String probe;
    private final ProbeSettings settings;
    private final Properties properties;
    private final Function<Exception, String> describeFailure;
    private volatile Connection connection;
    private volatile boolean closed;

    /**
     * @param probe           the probe's name for messages ("PostgreSQL probe")
     * @param properties      the driver's connection properties, user and password among them
     * @param describeFailure a failure to connect in words an operator can act on (the driver's message)
     */
    public MonitoringConnection(String probe, ProbeSettings settings, Properties properties,
                                Function<Exception, String> describeFailure) {
        this.probe = Objects.requireNonNull(probe, "probe");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.properties = (Properties) properties.clone();
        this.describeFailure = Objects.requireNonNull(describeFailure, "describeFailure");
    }

    /** The open connection, opened now when there is none. */
    public Connection get() throws ProbeException {
        if (closed) {
            throw closedFailure();
        }
        Connection open = connection;
        if (open != null) {
            return open;
        }
        try {
            open = DriverManager.getConnection(settings.jdbcUrl(), properties);
            open.setAutoCommit(true);
        } catch (SQLException | RuntimeException e) { // a driver may throw unchecked for a URL it cannot use
            throw new ProbeException("cannot connect to " + settings.describeUrl() + " as " + settings.user() + ": "
                    + describeFailure.apply(e), e);
        }
        connection = open;
        if (closed) {
            // close() ran while we connected and did not see this connection.
            close();
            throw closedFailure();
        }
        return open;
    }

    /** After a failed query the connection may be broken; the next {@link #get()} opens a new one. */
    public void discard(ProbeException failure) {
        try {
            closeOpen();
        } catch (SQLException e) {
            failure.addSuppressed(e);
        }
    }

    /** Closes the connection; a poll blocked on it fails at once, and a later {@link #get()} fails. */
    @Override
    public void close() {
        closed = true;
        try {
            closeOpen();
        } catch (SQLException e) {
            LOG.warn("closing the monitoring connection to {} failed", settings.describeUrl(), e);
        }
    }

    private void closeOpen() throws SQLException {
        Connection open = connection;
        connection = null;
        if (open != null) {
            open.close();
        }
    }

    private ProbeException closedFailure() {
        return new ProbeException("the " + probe + " of " + settings.describeUrl() + " is closed");
    }
}
