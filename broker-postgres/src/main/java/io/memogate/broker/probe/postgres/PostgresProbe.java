package io.memogate.broker.probe.postgres;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.function.LongSupplier;

import io.memogate.broker.probe.HostMemory;
import io.memogate.broker.probe.MemoryProbe;
import io.memogate.broker.probe.MemorySnapshot;
import io.memogate.broker.probe.ProbeException;
import io.memogate.broker.probe.ProbeFactory;
import io.memogate.broker.probe.ProbeSettings;
import io.memogate.broker.probe.ProcMemoryReader;
import io.memogate.broker.probe.jdbc.MonitoringConnection;

/**
 * The PostgreSQL memory probe: one long-lived monitoring connection over java.sql (the driver is pgjdbc,
 * found through DriverManager), reopened on the next poll after any failure.
 *
 * <p>Each poll, in order: the monitoring user's right to see every session ({@link MonitoringRights});
 * pg_settings ({@link ServerSettingsReader}); pg_stat_activity ({@link ActivityReader}); pg_stat_database
 * and, on 16+, pg_stat_io ({@link StatisticsReader}); then, when co-located, each server process's
 * private memory (but a backend's that has waited for its client since the last read: {@link ServerProcessMemory})
 * and the host's memory from /proc ({@link ProcMemoryReader}). The readings, in PostgreSQL's
 * terms ({@link PostgresReading}), are then mapped into the broker's server-neutral snapshot.
 *
 * <p>Connecting and every read are bounded by the settings' timeout (pgjdbc's loginTimeout,
 * connectTimeout and socketTimeout), so a server that stops answering fails the poll instead of hanging
 * the broker's thread.
 */
public final class PostgresProbe implements MemoryProbe {

    /** The broker's probe for PostgreSQL servers. */
    public static final ProbeFactory FACTORY = PostgresProbe::new;

    /** Shown in pg_stat_activity.application_name, so a DBA sees what the session is. */
    static final String APPLICATION_NAME = "memogate-broker";

    private final ProbeSettings settings;
    private final ProcMemoryReader proc;
    private final LongSupplier nanoTime;
    private final Object pollLock = new Object();
    /** Guarded by pollLock. */
    private final ServerProcessMemory processMemory = new ServerProcessMemory();
    private final MonitoringConnection connection;

    /** A probe that reads this host's /proc when {@code settings.coLocated()}. */
    public PostgresProbe(ProbeSettings settings, LongSupplier nanoTime) {
        this(settings, ProcMemoryReader.system(), nanoTime);
    }

    public PostgresProbe(ProbeSettings settings, ProcMemoryReader proc, LongSupplier nanoTime) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.proc = Objects.requireNonNull(proc, "proc");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        this.connection = new MonitoringConnection("PostgreSQL probe", settings, connectionProperties(settings),
                e -> e instanceof SQLException failure ? JdbcFailures.message(failure) : e.getMessage());
    }

    @Override
    public MemorySnapshot probe() throws ProbeException {
        synchronized (pollLock) {
            long takenAt = nanoTime.getAsLong();
            Connection open = connection.get();
            ServerSettings server;
            Activity activity;
            CumulativeStatistics statistics;
            try {
                MonitoringRights.check(open);
                server = ServerSettingsReader.read(open);
                activity = ActivityReader.read(open);
                statistics = StatisticsReader.read(open, server.serverVersionNum());
            } catch (SQLException e) {
                ProbeException failure = new ProbeException("PostgreSQL probe of " + settings.describeUrl()
                        + " failed: " + e.getMessage(), e);
                connection.discard(failure);
                throw failure;
            }
            Map<Integer, Long> privateBytes = Map.of();
            HostMemory host = new HostMemory(OptionalLong.empty(), OptionalLong.empty());
            if (settings.coLocated()) {
                privateBytes = processMemory.read(activity, this::privateMemory);
                host = hostMemory();
            }
            return new PostgresReading(takenAt, server, activity, statistics, privateBytes, host).snapshot();
        }
    }

    /** Closes the monitoring connection; a poll blocked on it fails at once. */
    @Override
    public void close() {
        connection.close();
    }

    private static Properties connectionProperties(ProbeSettings settings) {
        // pgjdbc counts these timeouts in whole seconds, and 0 means "no limit": round up to at least 1.
        String seconds = Long.toString(Math.max(1, (settings.timeout().toMillis() + 999) / 1000));
        Properties properties = new Properties();
        properties.setProperty("user", settings.user());
        if (settings.password() != null) {
            properties.setProperty("password", settings.password());
        }
        properties.setProperty("ApplicationName", APPLICATION_NAME);
        properties.setProperty("loginTimeout", seconds);
        properties.setProperty("connectTimeout", seconds);
        properties.setProperty("socketTimeout", seconds);
        return properties;
    }

    private OptionalLong privateMemory(int pid) throws ProbeException {
        try {
            return proc.privateBytes(pid);
        } catch (IOException e) {
            throw new ProbeException("cannot read the memory of PostgreSQL process " + pid
                    + " in /proc (is the server on this host, in this pid namespace?): " + e, e);
        }
    }

    private HostMemory hostMemory() throws ProbeException {
        try {
            return proc.hostMemory();
        } catch (IOException e) {
            throw new ProbeException("cannot read the host's memory from /proc/meminfo: " + e, e);
        }
    }
}
