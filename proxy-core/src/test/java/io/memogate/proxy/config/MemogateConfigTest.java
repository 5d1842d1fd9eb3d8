package io.memogate.proxy.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.broker.BrokerSettings;
import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.probe.postgres.ServerNameVerifier;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;
import javax.net.ssl.HostnameVerifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.Driver;
import org.postgresql.util.ObjectFactory;

/** Configurations built in code: routing, and the same rules as for a file. */
class MemogateConfigTest {

    @TempDir
    Path dir;

    private final BackendConfig main = BackendConfig.of("main", "db1", 5432);
    private final BackendConfig reports = BackendConfig.of("reports", "db2", 5432)
            .withDatabases("reports", "analytics").withDefault(false);

    /** A configuration built in code (the bench, the tests) gets the file's rule for eventLoops. */
    @Test
    void eventLoopsAreCheckedInCodeToo() {
        assertThatThrownBy(() -> MemogateConfig.of(main).withNetwork(NetworkConfig.DEFAULTS.withEventLoops(0)))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("network.eventLoops must be in 1..1024, was 0");
        assertThat(MemogateConfig.of(main).withNetwork(NetworkConfig.DEFAULTS.withEventLoops(1)).network().eventLoops())
                .isEqualTo(1);
    }

    @Test
    void routesAListedDatabaseToTheBackendThatListsIt() {
        MemogateConfig config = MemogateConfig.of(main.withDatabases("demo"), reports);

        assertThat(config.backendFor("reports")).map(BackendConfig::name).contains("reports");
        assertThat(config.backendFor("analytics")).map(BackendConfig::name).contains("reports");
        assertThat(config.backendFor("demo")).map(BackendConfig::name).contains("main");
    }

    @Test
    void routesOtherDatabasesToTheDefaultBackend() {
        MemogateConfig config = MemogateConfig.of(reports, main);

        assertThat(config.defaultBackend()).contains(main);
        assertThat(config.backendFor("app")).contains(main);
        assertThat(config.backendFor("REPORTS")).as("names are exact, as PostgreSQL's").contains(main);
    }

    @Test
    void routesNothingElseWithoutADefault() {
        MemogateConfig config = MemogateConfig.of(reports);

        assertThat(config.defaultBackend()).isEmpty();
        assertThat(config.backendFor("app")).isEmpty();
        assertThat(config.backendFor("reports")).contains(reports);
    }

    @Test
    void buildsWithDefaults() {
        MemogateConfig config = MemogateConfig.of(main);

        assertThat(config.listeners()).containsExactly(ListenerConfig.of("127.0.0.1", 6432));
        assertThat(config.limits()).isEqualTo(LimitsConfig.DEFAULTS);
        assertThat(config.admin().http()).isEqualTo(AdminHttpConfig.of("127.0.0.1", 9930));
        assertThat(config.withAdmin(new AdminConfig(AdminHttpConfig.of("127.0.0.1", 0))).admin().http().port()).isZero();
        assertThat(main.isDefault()).isTrue();
        assertThat(main.tls()).isEqualTo(BackendTlsConfig.of(TlsMode.PREFER));
        assertThat(config.withListeners(ListenerConfig.of("0.0.0.0", 0)).listeners())
                .containsExactly(ListenerConfig.of("0.0.0.0", 0));
        assertThat(config.withLimits(LimitsConfig.DEFAULTS.withShutdownTimeout(Duration.ZERO)).limits().shutdownTimeout())
                .isZero();
        assertThat(config.admission()).isEqualTo(AdmissionConfig.DEFAULTS);
        assertThat(config.broker()).isEqualTo(BrokerConfig.DEFAULTS);
        assertThat(config.withAdmission(AdmissionConfig.defaults(2).withEnabled(false)).admission())
                .isEqualTo(new AdmissionConfig(false, Duration.ofSeconds(1), Duration.ofSeconds(10), 2,
                        GatewaySettings.defaults(2), 0));
        assertThat(config.withBroker(BrokerConfig.DEFAULTS.withCoLocated(true)).broker().coLocated()).isTrue();
        // The older constructors keep compiling and give the sections a file without them gets.
        assertThat(new MemogateConfig(List.of(ListenerConfig.defaults()), List.of(main), LimitsConfig.DEFAULTS,
                AdminConfig.DEFAULTS)).isEqualTo(config);
    }

    @Test
    void theBrokerWatchesTheDefaultBackendOrTheNamedOneWithItsTls() throws IOException {
        Path ca = Files.writeString(dir.resolve("ca bundle+1.pem"), "existence is all the validator checks");
        MonitorConfig monitor = MonitorConfig.of("memogate_monitor");
        MemogateConfig config = MemogateConfig.of(
                BackendConfig.of("plain", "10.0.0.1", 5432).withDatabases("a").withDefault(false)
                        .withTls(BackendTlsConfig.of(TlsMode.DISABLE)),
                BackendConfig.of("prefer", "db.internal", 5433).withDatabases("b"),
                BackendConfig.of("encrypted", "::1", 5434).withDatabases("c").withDefault(false)
                        .withTls(BackendTlsConfig.of(TlsMode.REQUIRE)),
                BackendConfig.of("verified", "db4.internal", 5435).withDatabases("d").withDefault(false)
                        .withTls(BackendTlsConfig.verifyFull(ca)));

        assertThat(config.brokerSettings()).isEmpty();
        // No backend named: the default one ("prefer"), database postgres.
        assertThat(url(config, monitor)).isEqualTo(
                "jdbc:postgresql://db.internal:5433/postgres?sslmode=prefer&ApplicationName=memogate-broker");
        assertThat(url(config, monitor.withBackend("plain"))).isEqualTo(
                "jdbc:postgresql://10.0.0.1:5432/postgres?sslmode=disable&ApplicationName=memogate-broker");
        assertThat(url(config, monitor.withBackend("encrypted").withDatabase("ops"))).isEqualTo(
                "jdbc:postgresql://[::1]:5434/ops?sslmode=require&ApplicationName=memogate-broker");
        assertThat(url(config, monitor.withBackend("verified"))).isEqualTo(
                "jdbc:postgresql://db4.internal:5435/postgres?sslmode=verify-full&sslrootcert="
                        + URLEncoder.encode(ca.toString(), StandardCharsets.UTF_8) + "&ApplicationName=memogate-broker");

        // What pgjdbc makes of them: the server, database and TLS files the broker will really use.
        Properties verified = Driver.parseURL(url(config, monitor.withBackend("verified").withDatabase("my db/ä")), null);
        assertThat(verified).containsEntry("PGHOST", "db4.internal").containsEntry("PGPORT", "5435")
                .containsEntry("PGDBNAME", "my db/ä").containsEntry("sslmode", "verify-full")
                .containsEntry("sslrootcert", ca.toString()).containsEntry("ApplicationName", "memogate-broker");
        Properties ipv6 = Driver.parseURL(url(config, monitor.withBackend("encrypted")), null);
        // pgjdbc keeps the brackets, which InetAddress.getByName accepts; unbracketed, "::1:5434" would be misread.
        assertThat(ipv6).containsEntry("PGHOST", "[::1]").containsEntry("PGPORT", "5434").containsEntry("sslmode", "require");
    }

    @Test
    void theBrokerReachesAUnixSocketBackendThroughJunixsocketsFactory() {
        MemogateConfig config = MemogateConfig.of(BackendConfig.of("local", "/var/run/postgresql", 5433));
        String url = url(config, MonitorConfig.of("memogate_monitor").withDatabase("my db"));

        // What pgjdbc makes of it: its socket factory, given the socket's path, and no TLS (none on a socket).
        Properties parsed = Driver.parseURL(url, null);
        assertThat(parsed).containsEntry("socketFactory", "org.newsclub.net.unix.AFUNIXSocketFactory$FactoryArg")
                .containsEntry("socketFactoryArg", "/var/run/postgresql/.s.PGSQL.5433")
                .containsEntry("PGDBNAME", "my db").containsEntry("sslmode", "disable")
                .containsEntry("ApplicationName", "memogate-broker");
        assertThat(config.backends().get(0).unixSocket()).contains(Path.of("/var/run/postgresql/.s.PGSQL.5433"));
        assertThat(BackendConfig.of("tcp", "db.internal", 5432).unixSocket()).isEmpty();
    }

    @Test
    void theBrokerVerifiesTheBackendsServerNameAsTheProxyDoes() throws Exception {
        Path ca = Files.writeString(dir.resolve("ca.pem"), "existence is all the validator checks");
        MemogateConfig config = MemogateConfig.of(BackendConfig.of("byAddress", "10.0.0.8", 5432)
                .withTls(BackendTlsConfig.verifyFull(ca).withServerName("db5.internal")));

        // What pgjdbc makes of the URL: it connects to the address and checks the certificate against the name.
        Properties connection = Driver.parseURL(url(config, MonitorConfig.of("m")), null);
        assertThat(connection).containsEntry("PGHOST", "10.0.0.8").containsEntry("sslmode", "verify-full")
                .containsEntry("sslrootcert", ca.toString())
                .containsEntry("sslhostnameverifier", ServerNameVerifier.class.getName())
                .containsEntry(ServerNameVerifier.SERVER_NAME, "db5.internal");
        // ... and the verifier it creates from those properties, as pgjdbc's MakeSSL does.
        HostnameVerifier verifier = ObjectFactory.instantiate(HostnameVerifier.class,
                connection.getProperty("sslhostnameverifier"), connection, false, null);
        assertThat(verifier).hasToString("ServerNameVerifier[db5.internal]");
    }

    @Test
    void theBrokerGetsTheMonitorsLoginAndEveryBrokerSetting() {
        BrokerConfig broker = new BrokerConfig(Optional.of(MonitorConfig.of("m").withPassword("pw")),
                Duration.ofMillis(250), Duration.ofSeconds(3), 0.8, OptionalLong.of(8L << 30), true, 512L << 20, 32L << 20);

        BrokerSettings settings = MemogateConfig.of(main).withBroker(broker).brokerSettings().orElseThrow();

        assertThat(settings).isEqualTo(BrokerSettings.builder(
                        "jdbc:postgresql://db1:5432/postgres?sslmode=prefer&ApplicationName=memogate-broker", "m", "pw")
                .interval(Duration.ofMillis(250)).gracePeriod(Duration.ofSeconds(3)).compileShare(0.8)
                .hostMemoryBytes(8L << 30).coLocated(true).staticTargetBytes(512L << 20).minimumTargetBytes(32L << 20)
                .build());
        assertThat(broker.monitor().orElseThrow().toString()).doesNotContain("pw");
    }

    @Test
    void appliesTheFileRulesToConfigurationsBuiltInCode() {
        assertThatThrownBy(() -> MemogateConfig.of(main, BackendConfig.of("other", "db2", 70000)))
                .isInstanceOf(ConfigException.class)
                .hasMessage("""
                        invalid configuration (2 problems):
                          backends[1].port must be in 1..65535, was 70000
                          backends: at most one backend may be default, found 2 (main, other); \
                        a backend that lists no databases is the default unless it says default: false""");
        assertThatThrownBy(() -> MemogateConfig.of(main.withTls(BackendTlsConfig.verifyFull(Path.of("/no/ca.pem")))))
                .hasMessageEndingWith("backends[0].tls.trustedCertificates: file not found: /no/ca.pem");
        assertThatThrownBy(() -> MemogateConfig.of(main).withLimits(LimitsConfig.DEFAULTS.withMaxMessageBytes(512)))
                .hasMessageEndingWith("limits.maxMessageBytes must be between 1KiB and 1GiB, was 512B");
        assertThatThrownBy(() -> MemogateConfig.of(main).withLimits(
                LimitsConfig.DEFAULTS.withShutdownTimeout(Duration.ofSeconds(-1))))
                .hasMessageEndingWith("limits.shutdownTimeout must not be negative, was -1s");
        assertThatThrownBy(() -> MemogateConfig.of())
                .hasMessageEndingWith("backends must name at least one backend");
        assertThatThrownBy(() -> MemogateConfig.of(main).withAdmin(new AdminConfig(AdminHttpConfig.of("127.0.0.1", 65536))))
                .hasMessageEndingWith("admin.http.port must be in 0..65535, was 65536");
        assertThatThrownBy(() -> MemogateConfig.of(main).withAdmission(
                new AdmissionConfig(true, Duration.ofSeconds(-1), Duration.ofMillis(-500), 0,
                        GatewaySettings.defaults(1), -1)))
                .hasMessageEndingWith("""
                        (4 problems):
                          admission.cpus must be in 1..65536, was 0
                          admission.waitNotice must not be negative, was -1s
                          admission.holdWhileRunning must not be negative, was -500ms
                          admission.statementRecords must be in 0..1000000, was -1""");
        assertThatThrownBy(() -> MemogateConfig.of(main).withAdmission(
                AdmissionConfig.defaults(2).withHoldWhileRunning(Duration.ofSeconds(-10))))
                .hasMessageEndingWith("admission.holdWhileRunning must not be negative, was -10s");
        assertThat(MemogateConfig.of(main)
                .withAdmission(AdmissionConfig.defaults(2).withHoldWhileRunning(Duration.ZERO))
                .admission().holdWhileRunning()).as("0 releases such statements like any other").isZero();
        assertThatThrownBy(() -> MemogateConfig.of(main).withBroker(new BrokerConfig(
                Optional.of(MonitorConfig.of("m").withBackend("reports")), Duration.ofMillis(1), Duration.ofSeconds(-1),
                Double.NaN, OptionalLong.of(-1), false, 64L << 20, 128L << 20)))
                .hasMessageEndingWith("""
                        (6 problems):
                          broker.monitor.backend must name a configured backend (main), was 'reports'
                          broker.interval must be at least 10ms, was 1ms
                          broker.gracePeriod must not be negative, was -1s
                          broker.compileShare must be in (0, 1], was NaN
                          broker.hostMemory must be positive, was -1B
                          broker.minimumTarget must not be more than broker.staticTarget (64MiB), was 128MiB""");
        // A reload that drops the backend the monitor watches is refused.
        MemogateConfig watching = MemogateConfig.of(main, reports)
                .withBroker(BrokerConfig.DEFAULTS.withMonitor(MonitorConfig.of("m").withBackend("reports")));
        assertThatThrownBy(() -> watching.withBackends(main)).hasMessageEndingWith(
                "broker.monitor.backend must name a configured backend (main), was 'reports'");
    }

    @Test
    void isImmutable() {
        List<BackendConfig> backends = new ArrayList<>(List.of(main));
        MemogateConfig config = new MemogateConfig(List.of(ListenerConfig.defaults()), backends, LimitsConfig.DEFAULTS);
        backends.add(reports);

        assertThat(config.backends()).containsExactly(main);
        assertThatThrownBy(() -> config.backends().add(reports)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> new MemogateConfig(List.of(), List.of(main), null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void writesListenerAddressesAsClientsDo() {
        assertThat(ListenerConfig.of("127.0.0.1", 6432).address()).isEqualTo("127.0.0.1:6432");
        assertThat(ListenerConfig.of("::1", 6432).address()).isEqualTo("[::1]:6432");
    }

    @Test
    void readsTlsModesAsLibpqWritesThem() {
        assertThat(TlsMode.fromConfigName("verify-full")).contains(TlsMode.VERIFY_FULL);
        assertThat(TlsMode.fromConfigName("disable")).contains(TlsMode.DISABLE);
        assertThat(TlsMode.fromConfigName("VERIFY_FULL")).isEmpty();
        assertThat(TlsMode.REQUIRE).hasToString("require");
    }

    /**
     * A mysql listener's backend is watched through mariadb-java-client, TLS as the proxy reaches it; the driver
     * has no "if offered", so prefer watches in plain text rather than fail against a server without TLS.
     */
    @Test
    void theMonitoringUrlOfAMysqlListenersBackendIsTheMariadbDrivers() {
        MonitorConfig monitor = MonitorConfig.of("watcher");
        BackendConfig maria = new BackendConfig("maria", "db.example", 3306, List.of(), true,
                BackendTlsConfig.of(TlsMode.PREFER));
        MemogateConfig config = MemogateConfig.of(maria)
                .withListeners(ListenerConfig.of("127.0.0.1", 0).withProtocol(Protocol.MYSQL));
        assertThat(url(config, monitor)).isEqualTo("jdbc:mariadb://db.example:3306/?sslMode=disable");
        assertThat(url(config.withBackends(maria.withTls(BackendTlsConfig.of(TlsMode.REQUIRE))), monitor))
                .isEqualTo("jdbc:mariadb://db.example:3306/?sslMode=trust");
        assertThat(url(MemogateConfig.of(maria), monitor)).as("behind a postgresql listener")
                .startsWith("jdbc:postgresql://db.example:3306/");
    }

    /** A tds listener's backend is watched through mssql-jdbc, TLS as the proxy reaches it. */
    @Test
    void theMonitoringUrlOfATdsListenersBackendIsMssqlJdbcs() throws IOException {
        Path bundle = Files.writeString(dir.resolve("ca.pem"), "existence is all the validator checks");
        MonitorConfig monitor = MonitorConfig.of("watcher");
        BackendConfig sql = new BackendConfig("sql", "db.example", 1433, List.of(), true,
                BackendTlsConfig.of(TlsMode.PREFER));
        MemogateConfig config = MemogateConfig.of(sql)
                .withListeners(ListenerConfig.of("127.0.0.1", 0).withProtocol(Protocol.TDS));
        assertThat(url(config, monitor)).isEqualTo("jdbc:sqlserver://;serverName={db.example};portNumber=1433;encrypt=false");
        assertThat(url(config.withBackends(sql.withTls(new BackendTlsConfig(TlsMode.VERIFY_FULL,
                Optional.of(bundle), Optional.of("sql.corp.example")))), monitor))
                .isEqualTo("jdbc:sqlserver://;serverName={db.example};portNumber=1433;encrypt=true"
                        + ";trustServerCertificate=false;hostNameInCertificate={sql.corp.example}");
    }

    private static String url(MemogateConfig config, MonitorConfig monitor) {
        return config.withBroker(BrokerConfig.DEFAULTS.withMonitor(monitor)).brokerSettings().orElseThrow().jdbcUrl();
    }
}
