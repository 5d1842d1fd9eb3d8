package io.memogate.broker.probe.mysql;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.memogate.broker.probe.HostMemory;
import io.memogate.broker.probe.MemoryProbe;
import io.memogate.broker.probe.MemorySnapshot;
import io.memogate.broker.probe.ProbeException;
import io.memogate.broker.probe.ProbeFactory;
import io.memogate.broker.probe.ProbeSettings;
import io.memogate.broker.probe.ProcMemoryReader;
import io.memogate.broker.probe.jdbc.MonitoringConnection;

/**
 * The memory probe for MariaDB and MySQL: one long-lived monitoring connection over java.sql (the driver is
 * mariadb-java-client, found through DriverManager by a {@code jdbc:mariadb:} URL), reopened on the next poll
 * after any failure.
 *
 * <p>Each poll, in order: global variables and status ({@link GlobalValues}), which say the flavour and
 * release; the user's PROCESS privilege ({@link MonitoringRights}); performance_schema's memory instruments when
 * it runs ({@link MemoryInstruments}); the client connections' threads when the user may see them all
 * ({@link ThreadsReader}); the host's memory from /proc when co-located. {@link MySqlReading} maps them into the
 * broker's server-neutral snapshot. What the user may not read is not a failure: the probe falls back to what
 * every user may read, and says so in the log once each time what it can read changes ({@link Visibility}).
 *
 * <p>Connecting and every read are bounded by the settings' timeout (the driver's connectTimeout and
 * socketTimeout), so a server that stops answering fails the poll instead of hanging the broker's thread.
 */
public final class MySqlProbe implements MemoryProbe {

    /** The broker's probe for MariaDB and MySQL servers. */
    public static final ProbeFactory FACTORY = MySqlProbe::new;

    /** Shown as the connection's program_name attribute (performance_schema.session_connect_attrs). */
    static final String PROGRAM_NAME = "memogate-broker";
    private static final Logger LOG = LoggerFactory.getLogger(MySqlProbe.class);

    private final ProbeSettings settings;
    private final ProcMemoryReader proc;
    private final LongSupplier nanoTime;
    private final Object pollLock = new Object();
    private final MonitoringConnection connection;
    /** What the last poll could read, to log a change once; written under pollLock. */
    private Visibility lastVisibility;

    /** A probe that reads this host's /proc when {@code settings.coLocated()}. */
    public MySqlProbe(ProbeSettings settings, LongSupplier nanoTime) {
        this(settings, ProcMemoryReader.system(), nanoTime);
    }

    public MySqlProbe(ProbeSettings settings, ProcMemoryReader proc, LongSupplier nanoTime) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.proc = Objects.requireNonNull(proc, "proc");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        this.connection = new MonitoringConnection("MySQL probe", settings, connectionProperties(settings),
                Exception::getMessage);
    }

    @Override
    public MemorySnapshot probe() throws ProbeException {
        synchronized (pollLock) {
            long takenAt = nanoTime.getAsLong();
            Connection open = connection.get();
            MySqlReading reading;
            try {
                reading = read(open, takenAt);
            } catch (SQLException e) {
                ProbeException failure = new ProbeException("MySQL probe of " + settings.describeUrl() + " failed: "
                        + e.getMessage(), e);
                connection.discard(failure);
                throw failure;
            }
            return reading.snapshot();
        }
    }

    private MySqlReading read(Connection open, long takenAt) throws SQLException, ProbeException {
        GlobalValues values = GlobalValues.read(open);
        Flavor flavor = Flavor.of(values.version());
        int version;
        try {
            version = Flavor.versionNumber(values.version());
        } catch (IllegalArgumentException e) {
            throw new ProbeException(e.getMessage(), e);
        }
        MonitoringRights rights = MonitoringRights.read(open);
        boolean performanceSchema = values.variableOn("performance_schema");
        Optional<MemoryInstruments> instruments = performanceSchema ? MemoryInstruments.read(open) : Optional.empty();
        Optional<List<ThreadRow>> threads = rights.process()
                ? Optional.of(ThreadsReader.read(open, ThreadsReader.query(flavor, version, instruments.isPresent())))
                : Optional.empty();
        report(new Visibility(flavor, rights, performanceSchema, instruments.isPresent()));
        HostMemory host = settings.coLocated() ? hostMemory() : new HostMemory(OptionalLong.empty(), OptionalLong.empty());
        return new MySqlReading(takenAt, flavor, values, threads, instruments, host);
    }

    /** Logs what the probe falls back to when it changes: at the first poll, and after a grant or a revoke. */
    private void report(Visibility visibility) {
        if (visibility.equals(lastVisibility)) {
            return;
        }
        Optional<String> fallbacks = visibility.fallbacks();
        if (fallbacks.isPresent()) {
            LOG.warn("{} ({})", fallbacks.get(), settings.describeUrl());
        } else if (lastVisibility != null) {
            LOG.info("{} monitoring user {} reads every connection's memory again ({})",
                    visibility.flavor().displayName(), visibility.rights().account(), settings.describeUrl());
        }
        lastVisibility = visibility;
    }

    /** Closes the monitoring connection; a poll blocked on it fails at once. */
    @Override
    public void close() {
        connection.close();
    }

    private static Properties connectionProperties(ProbeSettings settings) {
        String millis = Long.toString(Math.max(1, settings.timeout().toMillis()));
        Properties properties = new Properties();
        properties.setProperty("user", settings.user());
        if (settings.password() != null) {
            properties.setProperty("password", settings.password());
        }
        properties.setProperty("connectionAttributes", "program_name:" + PROGRAM_NAME);
        properties.setProperty("connectTimeout", millis);
        properties.setProperty("socketTimeout", millis);
        return properties;
    }

    private HostMemory hostMemory() throws ProbeException {
        try {
            return proc.hostMemory();
        } catch (IOException e) {
            throw new ProbeException("cannot read the host's memory from /proc/meminfo: " + e, e);
        }
    }
}
