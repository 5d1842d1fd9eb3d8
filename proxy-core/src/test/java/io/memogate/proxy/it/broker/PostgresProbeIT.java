package io.memogate.proxy.it.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.memogate.broker.Broker;
import io.memogate.broker.BrokerMode;
import io.memogate.broker.BrokerSettings;
import io.memogate.broker.BrokerState;
import io.memogate.broker.probe.MemorySnapshot;
import io.memogate.broker.probe.ProbeException;
import io.memogate.broker.probe.ProbeSettings;
import io.memogate.broker.probe.ProcMemoryReader;
import io.memogate.broker.probe.postgres.PostgresProbe;
import io.memogate.broker.probe.postgres.ServerNameVerifier;
import io.memogate.proxy.config.BackendConfig;
import io.memogate.proxy.config.BackendTlsConfig;
import io.memogate.proxy.config.BrokerConfig;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.config.MonitorConfig;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import io.memogate.proxy.postgres.embedded.PasswordKind;
import io.memogate.proxy.postgres.embedded.SelfSignedCertificate;
import io.memogate.proxy.testing.Await;

/**
 * The PostgreSQL probe and the broker against a real PostgreSQL 18 on this host: what the probe reads
 * matches what the server says, sessions of other users are seen, missing rights and a stopped server
 * fail the probe, and the broker then falls back instead of reporting made-up values. Under verify-full
 * the monitoring connection checks a backend's tls.serverName, as the proxy's own connections do.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class PostgresProbeIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final long SECOND = 1_000_000_000L;

    @Test
    void theProbeReadsWhatTheServerShows(EmbeddedPostgres server) throws Exception {
        try (PostgresProbe probe = new PostgresProbe(superuserSettings(server), System::nanoTime);
             Connection session = server.connect("postgres")) {
            MemorySnapshot snapshot = probe.probe();

            assertThat(snapshot.version().number()).isEqualTo(Integer.parseInt(show(session, "server_version_num")));
            assertThat(snapshot.version().number()).isGreaterThanOrEqualTo(180000);
            assertThat(snapshot.version().text()).isEqualTo(show(session, "server_version"));
            assertThat(snapshot.memory().cacheBytes()).as("shared_buffers, initdb's default").isEqualTo(128L << 20)
                    .isEqualTo(sizeInBytes(session, "shared_buffers"));
            long workMem = sizeInBytes(session, "work_mem");
            assertThat(snapshot.memory().operationBytes()).hasValue(workMem);
            // Other tests' statements may be running on the shared server: whatever the count, the reserve is its own.
            assertThat(snapshot.memory().queryBytes()).as("active x work_mem x hash_mem_multiplier").isEqualTo(
                    (long) Math.ceil(snapshot.connections().active() * (double) workMem
                            * Double.parseDouble(show(session, "hash_mem_multiplier"))));
            assertThat(snapshot.memory().compileBytes()).as("PostgreSQL does not report it").isEmpty();
            assertThat(snapshot.connections().limit()).isEqualTo(Integer.parseInt(show(session, "max_connections")));
            assertThat(snapshot.plannerSettings()).containsOnlyKeys("join_collapse_limit", "from_collapse_limit",
                    "geqo", "geqo_threshold", "geqo_effort", "geqo_pool_size", "geqo_generations",
                    "enable_partitionwise_join", "enable_partitionwise_aggregate", "enable_memoize");
            for (String name : snapshot.plannerSettings().keySet()) {
                assertThat(snapshot.plannerSettings().get(name)).as(name).isEqualTo(show(session, name));
            }
            assertThat(snapshot.pressure().io()).as("pg_stat_io on 16+").isPresent();
            assertThat(snapshot.pressure().compileWaits()).as("PostgreSQL has no compile gate").isEmpty();
            assertThat(snapshot.host().totalBytes()).isPresent();
            assertThat(snapshot.host().availableBytes()).isPresent();
        }
    }

    @Test
    void aSessionRunningAStatementCountsAsActiveWithItsPrivateMemory(EmbeddedPostgres server) throws Exception {
        ExecutorService client = Executors.newSingleThreadExecutor();
        try (PostgresProbe probe = new PostgresProbe(superuserSettings(server), System::nanoTime);
             Connection sleeper = server.connect("postgres")) {
            int pid = backendPid(sleeper);
            CompletableFuture<Void> sleeping = CompletableFuture.runAsync(() -> execute(sleeper,
                    "SELECT pg_catalog.pg_sleep(2)"), client);

            MemorySnapshot seen = probe.probe();
            while (seen.connections().active() == 0 && !sleeping.isDone()) {
                seen = probe.probe();
            }

            // At least: the shared server may be finishing other tests' statements too.
            assertThat(seen.connections().active()).as("the sleeping session").isPositive();
            assertThat(seen.connections().ids()).contains(pid);
            assertThat(seen.memory().retainedBytesById().get(pid)).as("private bytes of backend %d", pid).isPositive();
            sleeping.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            int during = seen.connections().active();
            Await.until("after the statement, the idle session no longer counted as active", TIMEOUT,
                    () -> probe.probe().connections().active() < during);
        } finally {
            client.shutdownNow();
        }
    }

    /**
     * /proc is a directory the test writes, so that it knows which value the probe read and when: the sessions are
     * the real server's, and so are their states in pg_stat_activity.
     */
    @Test
    void anIdleSessionsMemoryIsNotReadAgainUntilItRunsSomething(EmbeddedPostgres server, @TempDir Path proc)
            throws Exception {
        Files.writeString(proc.resolve("meminfo"), "MemTotal: 1000 kB\nMemAvailable: 500 kB\n");
        try (PostgresProbe probe = new PostgresProbe(superuserSettings(server), new ProcMemoryReader(proc),
                System::nanoTime);
             Connection session = server.connect("postgres")) {
            int pid = backendPid(session);
            writeRssAnon(proc, pid, 2_000);
            assertThat(probe.probe().memory().retainedBytesById()).containsEntry(pid, 2_000L * 1024);

            writeRssAnon(proc, pid, 3_000);
            assertThat(probe.probe().memory().retainedBytesById()).as("idle since the last read")
                    .containsEntry(pid, 2_000L * 1024);

            execute(session, "SELECT 1");
            assertThat(probe.probe().memory().retainedBytesById()).as("ran a statement since")
                    .containsEntry(pid, 3_000L * 1024);
        }
    }

    private static void writeRssAnon(Path proc, int pid, long kib) throws IOException {
        Path process = Files.createDirectories(proc.resolve(Integer.toString(pid)));
        Files.writeString(process.resolve("status"), "Name:\tpostgres\nRssAnon:\t" + kib + " kB\n");
    }

    @Test
    void aSortThatSpillsShowsUpInTempBytes(EmbeddedPostgres server) throws Exception {
        try (PostgresProbe probe = new PostgresProbe(superuserSettings(server), System::nanoTime);
             Connection session = server.connect("postgres")) {
            long before = probe.probe().pressure().spilledBytes();

            // An idle backend may hold its statistics back for up to ten seconds (PGSTAT_IDLE_INTERVAL);
            // pg_stat_force_next_flush (PostgreSQL 15+) makes it flush when this statement ends.
            execute(session, "SET work_mem = '64kB'",
                    "SELECT count(*) FROM (SELECT g FROM generate_series(1, 100000) g ORDER BY g DESC) s",
                    "SELECT pg_catalog.pg_stat_force_next_flush()");

            Await.until("over 100 kB spilled by the sort counted", TIMEOUT,
                    () -> probe.probe().pressure().spilledBytes() - before > 100_000);
        }
    }

    @Test
    void underVerifyFullTheMonitorChecksTheBackendsServerName(EmbeddedPostgres server,
                                                              SelfSignedCertificate certificate) throws Exception {
        // The certificate names localhost and 127.0.0.1 and the server is reached at 127.0.0.1: only the
        // configured tls.serverName decides whether the name matches, as on the proxy's own server leg.
        try (PostgresProbe probe = new PostgresProbe(verifyingSettings(server, certificate, "localhost"),
                System::nanoTime)) {
            assertThat(probe.probe().version().number()).isGreaterThanOrEqualTo(180000);
        }
        try (PostgresProbe probe = new PostgresProbe(verifyingSettings(server, certificate, "elsewhere.invalid"),
                System::nanoTime)) {
            assertThatThrownBy(probe::probe).isInstanceOf(ProbeException.class)
                    .hasMessageStartingWith("cannot connect to " + server.jdbcUrl("postgres"))
                    .hasMessageContaining("could not be verified by hostnameverifier "
                            + ServerNameVerifier.class.getName());
        }
    }

    /** A backend named by its Unix socket directory: the monitor reaches the server there too, as the proxy does. */
    @Test
    void overTheBackendsUnixSocketTheMonitorReadsTheServer(EmbeddedPostgres server) throws Exception {
        BackendConfig backend = BackendConfig.of("local", server.socketDirectory().toString(), server.port());
        MonitorConfig monitor = MonitorConfig.of(server.superuser()).withPassword(server.superuserPassword());
        ProbeSettings settings = MemogateConfig.of(backend).withBroker(BrokerConfig.DEFAULTS.withMonitor(monitor))
                .brokerSettings().orElseThrow().probeSettings();
        try (PostgresProbe probe = new PostgresProbe(settings, System::nanoTime);
             Connection observer = server.connect("postgres");
             Statement statement = observer.createStatement()) {
            assertThat(probe.probe().version().number()).isGreaterThanOrEqualTo(180000);
            ResultSet monitors = statement.executeQuery("SELECT count(*) FILTER (WHERE client_addr IS NULL),"
                    + " count(*) FROM pg_stat_activity WHERE application_name = 'memogate-broker'");
            assertThat(monitors.next()).isTrue();
            assertThat(monitors.getInt(2)).as("the monitor's session").isEqualTo(1);
            assertThat(monitors.getInt(1)).as("on the Unix socket: no client address").isEqualTo(1);
        }
    }

    /**
     * The URL's host is only a name when the socket factory reaches the server, so a failure names the
     * socket and the cause, not "cannot connect to jdbc:postgresql://localhost:5432/postgres: The connection
     * attempt failed.", which sends the operator to a TCP port that may well answer.
     */
    @Test
    void aMissingSocketIsNamedInTheMonitorsFailure(EmbeddedPostgres server) throws Exception {
        String directory = server.socketDirectory().resolveSibling("no-such-run").toString();
        BackendConfig backend = BackendConfig.of("local", directory, server.port());
        MonitorConfig monitor = MonitorConfig.of(server.superuser()).withPassword(server.superuserPassword());
        ProbeSettings settings = MemogateConfig.of(backend).withBroker(BrokerConfig.DEFAULTS.withMonitor(monitor))
                .brokerSettings().orElseThrow().probeSettings();
        try (PostgresProbe probe = new PostgresProbe(settings, System::nanoTime)) {
            assertThatThrownBy(probe::probe).isInstanceOf(ProbeException.class)
                    .hasMessageContaining(directory + "/.s.PGSQL." + server.port())
                    .hasMessageContaining("No such file or directory");
        }
    }

    @Test
    void withoutPgMonitorTheProbeFailsAndTheBrokerGoesStaleThenStaticThenLiveAgain(EmbeddedPostgres server)
            throws Exception {
        String user = "memogate_probe_monitor";
        String password = "monitor-secret";
        server.createUser(user, password, PasswordKind.SCRAM);
        server.execute("postgres", "GRANT pg_monitor TO " + user);
        String expected = "monitoring user '" + user + "' cannot see other sessions: GRANT pg_monitor TO " + user;
        AtomicLong clock = new AtomicLong(1_000 * SECOND);
        BrokerSettings settings = BrokerSettings.builder(server.jdbcUrl("postgres"), user, password)
                .coLocated(true).gracePeriod(Duration.ofSeconds(10)).build();
        try (PostgresProbe probe = new PostgresProbe(settings.probeSettings(), clock::get);
             Broker broker = new Broker(settings, probe, clock::get, state -> { })) {
            BrokerState live = broker.pollOnce();
            assertThat(live.mode()).isEqualTo(BrokerMode.LIVE);

            server.execute("postgres", "REVOKE pg_monitor FROM " + user);
            assertThatThrownBy(probe::probe).isInstanceOf(ProbeException.class).hasMessage(expected);
            clock.addAndGet(SECOND);
            BrokerState stale = broker.pollOnce();
            assertThat(stale.mode()).isEqualTo(BrokerMode.STALE);
            assertThat(stale.targetBytes()).as("kept").isEqualTo(live.targetBytes());
            assertThat(stale.lastFailure()).hasValue(expected);

            clock.addAndGet(10 * SECOND);
            BrokerState fallback = broker.pollOnce();
            assertThat(fallback.mode()).isEqualTo(BrokerMode.STATIC);
            assertThat(fallback.targetBytes()).isEqualTo(settings.staticTargetBytes());
            assertThat(fallback.plannerSettings()).isEmpty();

            server.execute("postgres", "GRANT pg_monitor TO " + user);
            clock.addAndGet(SECOND);
            BrokerState back = broker.pollOnce();
            assertThat(back.mode()).isEqualTo(BrokerMode.LIVE);
            assertThat(back.totalFailures()).isEqualTo(2);
        } finally {
            server.execute("postgres", "DROP ROLE " + user);
        }
    }

    @Test
    void aServerThatStopsMakesTheBrokerFallBackWithoutMadeUpValues() throws Exception {
        AtomicLong clock = new AtomicLong(1_000 * SECOND);
        try (EmbeddedPostgres own = EmbeddedPostgres.start()) {
            BrokerSettings settings = BrokerSettings.builder(own.jdbcUrl("postgres"), own.superuser(),
                    own.superuserPassword()).coLocated(true).gracePeriod(Duration.ofSeconds(10)).build();
            // As the proxy makes it: the broker opens the probe through the PostgreSQL factory, and closes it.
            try (Broker broker = new Broker(settings, PostgresProbe.FACTORY, clock::get, state -> { })) {
                BrokerState live = broker.pollOnce();
                assertThat(live.mode()).isEqualTo(BrokerMode.LIVE);
                MemorySnapshot good = live.lastGoodSnapshot().orElseThrow();

                own.close();
                clock.addAndGet(SECOND);
                BrokerState stale = broker.pollOnce();
                assertThat(stale.mode()).isEqualTo(BrokerMode.STALE);
                assertThat(stale.lastFailure().orElseThrow()).contains(own.jdbcUrl("postgres"));
                assertThat(stale.lastGoodSnapshot()).hasValue(good);
                assertThat(stale.targetBytes()).isEqualTo(live.targetBytes());

                clock.addAndGet(SECOND);
                assertThat(broker.pollOnce().lastFailure().orElseThrow()).as("reconnecting")
                        .startsWith("cannot connect to " + own.jdbcUrl("postgres"));
                clock.addAndGet(10 * SECOND);
                BrokerState fallback = broker.pollOnce();
                assertThat(fallback.mode()).isEqualTo(BrokerMode.STATIC);
                assertThat(fallback.targetBytes()).isEqualTo(settings.staticTargetBytes());
                assertThat(fallback.lastGoodSnapshot()).as("the old one, not a new one of zeros").hasValue(good);
                assertThat(fallback.privateBytesByPid()).isEmpty();
                assertThat(fallback.consecutiveFailures()).isEqualTo(3);
            }
        }
    }

    private static ProbeSettings superuserSettings(EmbeddedPostgres server) {
        return new ProbeSettings(server.jdbcUrl("postgres"), server.superuser(), server.superuserPassword(), true,
                TIMEOUT);
    }

    /** The monitor's settings as `memogate run` derives them for a verify-full backend on {@code server}. */
    private static ProbeSettings verifyingSettings(EmbeddedPostgres server, SelfSignedCertificate certificate,
                                                   String serverName) {
        BackendConfig backend = BackendConfig.of("pg", server.host(), server.port())
                .withTls(BackendTlsConfig.verifyFull(certificate.certificateFile()).withServerName(serverName));
        MonitorConfig monitor = MonitorConfig.of(server.superuser()).withPassword(server.superuserPassword());
        return MemogateConfig.of(backend).withBroker(BrokerConfig.DEFAULTS.withMonitor(monitor))
                .brokerSettings().orElseThrow().probeSettings();
    }

    private static String show(Connection session, String setting) throws SQLException {
        try (Statement statement = session.createStatement();
             ResultSet row = statement.executeQuery("SHOW " + setting)) {
            row.next();
            return row.getString(1);
        }
    }

    private static long sizeInBytes(Connection session, String setting) throws SQLException {
        try (Statement statement = session.createStatement();
             ResultSet row = statement.executeQuery("SELECT pg_catalog.pg_size_bytes(current_setting('"
                     + setting + "'))")) {
            row.next();
            return row.getLong(1);
        }
    }

    private static int backendPid(Connection session) throws SQLException {
        try (Statement statement = session.createStatement();
             ResultSet row = statement.executeQuery("SELECT pg_catalog.pg_backend_pid()")) {
            row.next();
            return row.getInt(1);
        }
    }

    private static void execute(Connection session, String... statements) {
        try (Statement statement = session.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
