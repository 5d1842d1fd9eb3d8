package io.memogate.proxy.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.memogate.broker.BrokerSettings;
import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.Tier;
import io.memogate.broker.gateway.TierSettings;
import io.memogate.proxy.admission.DegradePolicy;
import io.memogate.proxy.admission.SearchTiers;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Valid files: every field read, defaults applied, paths resolved, the shipped example kept loadable. */
class ConfigLoaderTest {

    private final ConfigLoader loader = new ConfigLoader();

    @TempDir
    Path dir;

    private static final String BACKEND_ONLY = "backends:\n  - {name: main, host: localhost}\n";

    @Test
    void readsEveryField() throws IOException {
        Path certificate = touch("server.crt");
        Path key = touch("server.key");
        Path ca = touch("ca.pem");
        MemogateConfig config = loader.parse("""
                listeners:
                  - host: 0.0.0.0
                    port: 7432
                    tls:
                      certificate: %s
                      privateKey: %s
                  - host: "::1"
                    port: 0
                backends:
                  - name: main
                    host: db1.internal
                    port: 5433
                    databases: [demo, app]
                    default: true
                    tls:
                      mode: disable
                  - name: reports_2.eu-west
                    host: 10.0.0.7
                    port: 6000
                    databases:
                      - reports
                    default: false
                    tls:
                      mode: verify-full
                      trustedCertificates: %s
                      serverName: reports.db.internal
                limits:
                  maxMessageBytes: 16MB
                  connectTimeout: 500ms
                  shutdownTimeout: 2min
                  maxClientConnections: 250
                  loginTimeout: 15s
                admin:
                  http:
                    host: "::1"
                    port: 19930
                    enabled: false
                  users: [dba, "ops team"]
                  authDatabase: admin_auth
                  watchInterval: 500ms
                admission:
                  enabled: false
                  waitNotice: 250ms
                  holdWhileRunning: 2min
                  cpus: 16
                  staticThreshold: 2MiB
                  statementRecords: 500
                  tiers:
                    small: {limit: 48, fraction: 0.2, maxQueue: 500, timeout: 10s}
                    medium: {limit: 12, fraction: .75, maxQueue: 0, timeout: 1min}
                    large: {limit: 2, maxQueue: 5, timeout: 10min}
                broker:
                  monitor:
                    user: memogate_monitor
                    password: "s3cret&more"
                    database: ops
                    backend: reports_2.eu-west
                  interval: 500ms
                  gracePeriod: 0
                  compileShare: 0.3
                  hostMemory: 64GiB
                  coLocated: true
                  staticTarget: 1GiB
                  minimumTarget: 1GiB
                """.formatted(certificate, key, ca), dir);

        assertThat(config.listeners()).containsExactly(
                new ListenerConfig("0.0.0.0", 7432, Optional.of(new ServerTlsConfig(certificate, key))),
                new ListenerConfig("::1", 0, Optional.empty()));
        assertThat(config.backends()).containsExactly(
                new BackendConfig("main", "db1.internal", 5433, List.of("demo", "app"), true,
                        BackendTlsConfig.of(TlsMode.DISABLE)),
                new BackendConfig("reports_2.eu-west", "10.0.0.7", 6000, List.of("reports"), false,
                        new BackendTlsConfig(TlsMode.VERIFY_FULL, Optional.of(ca), Optional.of("reports.db.internal"))));
        assertThat(config.limits()).isEqualTo(new LimitsConfig(16 * 1024 * 1024, Duration.ofMillis(500),
                Duration.ofMinutes(2), 250, Duration.ofSeconds(15)));
        assertThat(config.backends().get(1).tlsServerName()).isEqualTo("reports.db.internal");
        assertThat(config.recycle()).isEqualTo(RecycleConfig.DEFAULTS);
        assertThat(config.backends().get(0).tlsServerName()).isEqualTo("db1.internal");
        assertThat(config.admin()).isEqualTo(new AdminConfig(new AdminHttpConfig("::1", 19930, false),
                List.of("dba", "ops team"), "admin_auth", Duration.ofMillis(500)));
        assertThat(config.admin().isConsoleUser("ops team")).isTrue();
        assertThat(config.admin().isConsoleUser("DBA")).as("role names are exact").isFalse();
        assertThat(config.admin().http().address()).isEqualTo("[::1]:19930");
        assertThat(config.admission()).isEqualTo(new AdmissionConfig(false, Duration.ofMillis(250),
                Duration.ofMinutes(2), 16,
                new GatewaySettings(2 * 1024 * 1024,
                        new TierSettings(48, 0.2, 500, Duration.ofSeconds(10)),
                        new TierSettings(12, 0.75, 0, Duration.ofMinutes(1)),
                        // LARGE's fraction is never used; the file cannot set it and it stays the default.
                        new TierSettings(2, 1.0, 5, Duration.ofMinutes(10))), 500));
        assertThat(config.broker()).isEqualTo(new BrokerConfig(
                Optional.of(new MonitorConfig("memogate_monitor", Optional.of("s3cret&more"), "ops",
                        Optional.of("reports_2.eu-west"))),
                Duration.ofMillis(500), Duration.ZERO, 0.3, OptionalLong.of(64L << 30), true, 1L << 30, 1L << 30));
        // What the broker is started with: the named backend's server, over its verify-full TLS, the
        // certificate checked against the backend's serverName.
        BrokerSettings broker = config.brokerSettings().orElseThrow();
        assertThat(broker.jdbcUrl()).isEqualTo("jdbc:postgresql://10.0.0.7:6000/ops?sslmode=verify-full&sslrootcert="
                + URLEncoder.encode(ca.toString(), StandardCharsets.UTF_8)
                + "&sslhostnameverifier=io.memogate.broker.probe.postgres.ServerNameVerifier"
                + "&memogateServerName=reports.db.internal&ApplicationName=memogate-broker");
        assertThat(broker.user()).isEqualTo("memogate_monitor");
        assertThat(broker.password()).isEqualTo("s3cret&more");
        assertThat(broker.interval()).isEqualTo(Duration.ofMillis(500));
        assertThat(broker.gracePeriod()).isZero();
        assertThat(broker.compileShare()).isEqualTo(0.3);
        assertThat(broker.hostMemoryBytes()).hasValue(64L << 30);
        assertThat(broker.coLocated()).isTrue();
        assertThat(broker.staticTargetBytes()).isEqualTo(1L << 30);
        assertThat(broker.minimumTargetBytes()).isEqualTo(1L << 30);
        assertThat(broker.pressureShrink()).isEqualTo(BrokerSettings.DEFAULT_PRESSURE_SHRINK);
    }

    @Test
    void appliesDefaultsToAMinimalFile() {
        MemogateConfig config = loader.parse("""
                backends:
                  - name: main
                    host: localhost
                """, dir);

        assertThat(config.listeners()).containsExactly(new ListenerConfig("127.0.0.1", 6432, Optional.empty()));
        // A backend that lists no databases is the default: the minimal file routes every database to it.
        assertThat(config.backends()).containsExactly(
                new BackendConfig("main", "localhost", 5432, List.of(), true,
                        new BackendTlsConfig(TlsMode.PREFER, Optional.empty(), Optional.empty())));
        assertThat(config.limits()).isEqualTo(new LimitsConfig(64 * 1024 * 1024, Duration.ofSeconds(5),
                Duration.ofSeconds(30), 1000, Duration.ofSeconds(60)));
        assertThat(config.admin()).isEqualTo(new AdminConfig(new AdminHttpConfig("127.0.0.1", 9930, true)));
        assertThat(config.admin().users()).as("nobody may use the console until listed").isEmpty();
        assertThat(config.admin().authDatabase()).isEqualTo("postgres");
        assertThat(config.admin().watchInterval()).isEqualTo(Duration.ofSeconds(2));
        assertThat(config.backendFor("anything")).contains(config.backends().get(0));
        // Admission on, sized for this machine; the broker does not poll and the target stays static.
        int cpus = Runtime.getRuntime().availableProcessors();
        assertThat(config.admission()).isEqualTo(AdmissionConfig.DEFAULTS);
        assertThat(config.admission().enabled()).isTrue();
        assertThat(config.admission().cpus()).isEqualTo(cpus);
        assertThat(config.admission().waitNotice()).isEqualTo(Duration.ofSeconds(1));
        assertThat(config.admission().holdWhileRunning()).isEqualTo(Duration.ofSeconds(10));
        assertThat(config.admission().gatewaySettings()).isEqualTo(GatewaySettings.defaults(cpus));
        assertThat(config.admission().gatewaySettings().small().limit()).isEqualTo(4 * cpus);
        assertThat(config.admission().gatewaySettings().staticThresholdBytes()).isEqualTo(1024 * 1024);
        assertThat(config.broker()).isEqualTo(BrokerConfig.DEFAULTS);
        assertThat(config.broker().monitor()).isEmpty();
        assertThat(config.broker().staticTargetBytes()).isEqualTo(256L * 1024 * 1024);
        assertThat(config.broker().minimumTargetBytes()).isEqualTo(64L * 1024 * 1024);
        assertThat(config.broker().interval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(config.broker().gracePeriod()).isEqualTo(Duration.ofSeconds(10));
        assertThat(config.broker().compileShare()).isEqualTo(0.5);
        assertThat(config.broker().hostMemoryBytes()).isEmpty();
        assertThat(config.broker().coLocated()).isFalse();
        assertThat(config.brokerSettings()).isEmpty();
    }

    @Test
    void appliesDefaultsInsideEachSection() {
        MemogateConfig config = loader.parse("""
                listeners:
                  - port: 7000
                  - host: 0.0.0.0
                backends:
                  - name: main
                    host: localhost
                    databases: [demo]
                    tls: {}
                  - name: other
                    host: localhost
                limits:
                  connectTimeout: 1000
                admin:
                  http: {port: 0}
                """, dir);

        assertThat(config.listeners()).containsExactly(ListenerConfig.of("127.0.0.1", 7000),
                ListenerConfig.of("0.0.0.0", 6432));
        assertThat(config.backends().get(0).tls()).isEqualTo(BackendTlsConfig.DEFAULT);
        // Listing databases makes a backend non-default unless it says otherwise.
        assertThat(config.backends()).extracting(BackendConfig::isDefault).containsExactly(false, true);
        assertThat(config.limits()).isEqualTo(LimitsConfig.DEFAULTS.withConnectTimeout(Duration.ofSeconds(1)));
        assertThat(config.admin().http()).isEqualTo(AdminHttpConfig.of("127.0.0.1", 0));
        assertThat(loader.parse("backends: [{name: m, host: h}]\nadmin: {}\n", dir).admin()).isEqualTo(AdminConfig.DEFAULTS);
    }

    @Test
    void tierDefaultsFollowCpusAndEachLeftOutValueIsTheDefaultTiers() {
        MemogateConfig config = loader.parse("""
                backends: [{name: main, host: localhost}]
                admission:
                  cpus: 3
                  tiers:
                    small: {fraction: 0.1}
                    large: {}
                """, dir);

        GatewaySettings defaults = GatewaySettings.defaults(3);
        assertThat(config.admission()).isEqualTo(AdmissionConfig.defaults(3)
                .withGatewaySettings(defaults.with(Tier.SMALL, defaults.small().withFraction(0.1))));
        assertThat(config.admission().gatewaySettings().small().limit()).isEqualTo(12);
        assertThat(config.admission().gatewaySettings().medium().limit()).isEqualTo(3);
        assertThat(loader.parse("backends: [{name: m, host: h}]\nadmission: {}\nbroker: {}\n", dir))
                .extracting(MemogateConfig::admission, MemogateConfig::broker)
                .containsExactly(AdmissionConfig.DEFAULTS, BrokerConfig.DEFAULTS);
    }

    @Test
    void aMonitorWithOnlyAUserWatchesTheDefaultBackendsPostgresDatabase() {
        MemogateConfig config = loader.parse("""
                backends:
                  - {name: reports, host: db2, databases: [reports]}
                  - {name: main, host: db1.internal, port: 5433}
                broker:
                  monitor: {user: monitor}
                  hostMemory: 8GiB
                """, dir);

        assertThat(config.broker()).isEqualTo(BrokerConfig.DEFAULTS.withMonitor(MonitorConfig.of("monitor"))
                .withHostMemory(8L << 30));
        BrokerSettings settings = config.brokerSettings().orElseThrow();
        assertThat(settings.jdbcUrl())
                .isEqualTo("jdbc:postgresql://db1.internal:5433/postgres?sslmode=prefer&ApplicationName=memogate-broker");
        assertThat(settings.password()).isNull();
        assertThat(settings.interval()).isEqualTo(BrokerSettings.DEFAULT_INTERVAL);
        assertThat(settings.staticTargetBytes()).isEqualTo(BrokerSettings.DEFAULT_STATIC_TARGET_BYTES);
    }

    @Test
    void acceptsPlainNumbersAndQuotedValues() {
        MemogateConfig config = loader.parse("""
                backends:
                  - {name: main, host: localhost, port: "5433", default: "TRUE"}
                limits:
                  maxMessageBytes: 1048576
                  maxClientConnections: "10"
                """, dir);

        assertThat(config.backends().get(0).port()).isEqualTo(5433);
        assertThat(config.limits().maxMessageBytes()).isEqualTo(1048576);
        assertThat(config.limits().maxClientConnections()).isEqualTo(10);
    }

    @Test
    void aBackendFollowsTdsRoutingUnlessItsTdsSectionSaysNot() {
        MemogateConfig config = loader.parse("""
                backends:
                  - {name: gateway, host: sql.example.net, port: 1433}
                  - {name: pinned, host: node1, port: 1433, databases: [x], tds: {followRouting: false}}
                """, dir);

        assertThat(config.backends().get(0).tds().followRouting()).isTrue();
        assertThat(config.backends().get(1).tds().followRouting()).isFalse();
        assertThat(problemsOf("""
                backends:
                  - {name: a, host: h, tds: {followRouting: sometimes}}
                """)).singleElement().asString().startsWith("backends[0].tds.followRouting must be");
        assertThat(problemsOf("""
                backends:
                  - {name: a, host: h, tds: {follow: true}}
                """)).singleElement().asString().contains("follow");
    }

    private List<String> problemsOf(String yaml) {
        try {
            return fail("expected a ConfigException, got " + loader.parse(yaml, dir));
        } catch (ConfigException e) {
            return e.problems();
        }
    }

    @Test
    void resolvesRelativeTlsPathsAgainstTheFilesDirectory() throws IOException {
        Path confDir = Files.createDirectories(dir.resolve("conf"));
        Files.createDirectories(confDir.resolve("tls"));
        Files.writeString(confDir.resolve("tls/server.crt"), "not checked here");
        Files.writeString(confDir.resolve("tls/server.key"), "not checked here");
        Files.writeString(confDir.resolve("ca.pem"), "not checked here");
        Path file = confDir.resolve("memogate.yaml");
        Files.writeString(file, """
                listeners:
                  - tls:
                      certificate: tls/server.crt
                      privateKey: ./tls/../tls/server.key
                backends:
                  - name: main
                    host: localhost
                    tls: {mode: verify-full, trustedCertificates: ca.pem}
                """);

        MemogateConfig config = loader.load(file);

        ServerTlsConfig tls = config.listeners().get(0).tls().orElseThrow();
        assertThat(tls.certificate()).isEqualTo(confDir.toAbsolutePath().resolve("tls/server.crt"));
        assertThat(tls.privateKey()).isEqualTo(confDir.toAbsolutePath().resolve("tls/server.key"));
        assertThat(config.backends().get(0).tls().trustedCertificates()).contains(confDir.toAbsolutePath().resolve("ca.pem"));
    }

    @Test
    void theShippedExampleLoadsAndSaysWhatItsCommentsSay() throws IOException {
        Files.createDirectories(dir.resolve("tls"));
        for (String name : List.of("tls/server.crt", "tls/server.key", "tls/backend-ca.pem")) {
            touch(name);
        }
        String example;
        try (InputStream in = ConfigLoader.class.getResourceAsStream("memogate-example.yaml")) {
            assertThat(in).as("memogate-example.yaml on the classpath").isNotNull();
            example = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }

        MemogateConfig config = loader.parse(example, dir);

        assertThat(config.listeners()).hasSize(2);
        assertThat(config.listeners().get(0)).isEqualTo(ListenerConfig.defaults());
        assertThat(config.listeners().get(1).tls()).isPresent();
        assertThat(config.backendFor("reports")).map(BackendConfig::name).contains("reporting");
        assertThat(config.backendFor("anything_else")).map(BackendConfig::name).contains("main");
        assertThat(config.backends().get(0).tls()).isEqualTo(BackendTlsConfig.DEFAULT);
        assertThat(config.backends().get(1).tlsServerName()).isEqualTo("reports.db.internal");
        // The example states the defaults: it must stay equal to them.
        assertThat(config.limits()).isEqualTo(LimitsConfig.DEFAULTS);
        assertThat(config.admin()).isEqualTo(AdminConfig.DEFAULTS);
        // It sets cpus (the default depends on the machine) and otherwise states the defaults for 8 CPUs.
        assertThat(config.admission()).isEqualTo(AdmissionConfig.defaults(8));
        assertThat(config.broker()).isEqualTo(BrokerConfig.DEFAULTS
                .withMonitor(MonitorConfig.of("memogate_monitor").withBackend("main"))
                .withHostMemory(16L << 30));
        assertThat(config.brokerSettings().orElseThrow().jdbcUrl())
                .isEqualTo("jdbc:postgresql://127.0.0.1:5432/postgres?sslmode=prefer&ApplicationName=memogate-broker");
        assertThat(config.network()).isEqualTo(NetworkConfig.DEFAULTS);
    }

    @Test
    void readsTheTransportEachWayItIsSpelt() {
        for (NetworkTransport transport : NetworkTransport.values()) {
            MemogateConfig config = loader.parse(BACKEND_ONLY + "network:\n  transport: " + transport.configName() + "\n",
                    dir);
            assertThat(config.network().transport()).isEqualTo(transport);
        }
        assertThat(loader.parse(BACKEND_ONLY + "network: {}\n", dir).network()).isEqualTo(NetworkConfig.DEFAULTS);
        assertThat(loader.parse(BACKEND_ONLY, dir).network().transport()).isEqualTo(NetworkTransport.AUTO);
    }

    @Test
    void eventLoopsDefaultToOnePerProcessor() {
        assertThat(loader.parse(BACKEND_ONLY, dir).network().eventLoops())
                .isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(loader.parse(BACKEND_ONLY + "network: {transport: epoll, eventLoops: 1}\n", dir).network())
                .isEqualTo(new NetworkConfig(NetworkTransport.EPOLL, 1, TcpKeepalive.SYSTEM_DEFAULTS));
    }

    @Test
    void keepaliveKeepsTheSystemsValuesUnlessTuned() {
        assertThat(loader.parse(BACKEND_ONLY, dir).network().keepalive()).isEqualTo(TcpKeepalive.SYSTEM_DEFAULTS);
        assertThat(loader.parse(BACKEND_ONLY + "network:\n  keepalive: {idle: 2min, interval: 10s, count: 4}\n", dir)
                .network().keepalive())
                .isEqualTo(new TcpKeepalive(Duration.ofMinutes(2), Duration.ofSeconds(10), 4));
        assertThat(loader.parse(BACKEND_ONLY + "network:\n  keepalive: {idle: 60s}\n", dir).network().keepalive())
                .isEqualTo(new TcpKeepalive(Duration.ofSeconds(60), Duration.ZERO, 0));
    }

    @Test
    void searchTiersDefaultAndAreReadWithTheirPaths() {
        assertThat(loader.parse(BACKEND_ONLY, dir).admission().searchTiers()).isEqualTo(SearchTiers.DEFAULTS);
        assertThat(loader.parse(BACKEND_ONLY + "admission:\n  search: {medium: 5s, large: 1min}\n", dir)
                .admission().searchTiers())
                .isEqualTo(new SearchTiers(Duration.ofMillis(100), Duration.ofSeconds(5), Duration.ofMinutes(1)));
        assertThatThrownBy(() -> loader.parse(BACKEND_ONLY + "admission:\n  search: {small: 0s, medium: 5s, large: 2s}\n",
                dir))
                .hasMessageContaining("admission.search.small must be > 0, was 0")
                .hasMessageContaining("admission.search.large must be at least admission.search.medium")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("admission.search.medium must"));
    }

    @Test
    void reportsAMissingFile() {
        Path missing = dir.resolve("nope.yaml");
        assertThatThrownBy(() -> loader.load(missing))
                .isInstanceOf(ConfigException.class)
                .hasMessage("cannot read the configuration file " + missing.toAbsolutePath() + ": file not found");
    }

    @Test
    void reportsAFileThatIsNotText() throws IOException {
        Path binary = dir.resolve("memogate.yaml");
        Files.write(binary, new byte[] {(byte) 0xC3, (byte) 0x28, 'a'});
        assertThatThrownBy(() -> loader.load(binary))
                .isInstanceOf(ConfigException.class)
                .extracting(e -> ((ConfigException) e).problems())
                .isEqualTo(List.of("the file is not UTF-8 text"));
    }

    @Test
    void namesTheFileInTheMessageAndListsEachProblemOnItsOwnLine() throws IOException {
        Path file = dir.resolve("memogate.yaml");
        Files.writeString(file, """
                backends:
                  - name: main
                    host: localhost
                    port: 70000
                limits:
                  maxClientConnections: 0
                """);

        assertThatThrownBy(() -> loader.load(file)).hasMessage("""
                invalid configuration %s (2 problems):
                  backends[0].port must be in 1..65535, was 70000
                  limits.maxClientConnections must be at least 1, was 0""".formatted(file));
    }

    private Path touch(String name) throws IOException {
        return Files.writeString(dir.resolve(name), "existence is all the validator checks");
    }

    @Test
    void degradeIsOffWithoutItsSection() throws Exception {
        assertThat(loader.parse(BACKEND_ONLY, dir).admission().degrade()).isEqualTo(DegradePolicy.OFF);
        assertThat(loader.parse(BACKEND_ONLY + "admission:\n  cpus: 2\n", dir).admission().degrade())
                .isEqualTo(DegradePolicy.OFF);
    }

    @Test
    void degradeReadsItsRolesAndApplicationNames() throws Exception {
        MemogateConfig config = loader.parse(BACKEND_ONLY + """
                admission:
                  degrade:
                    enabled: true
                    roles: [reporting, "bi user"]
                    applicationNames: [metabase]
                """, dir);
        assertThat(config.admission().degrade())
                .isEqualTo(new DegradePolicy(true, Set.of("reporting", "bi user"), Set.of("metabase")));
        assertThat(ConfigSettings.of(config)).contains(new ConfigSettings.Setting("admission.degrade.roles",
                "bi user, reporting", ConfigSettings.Applies.LIVE));
    }

    @Test
    void degradeAfterIsADurationShownLive() throws Exception {
        MemogateConfig config = loader.parse(BACKEND_ONLY + """
                admission:
                  degrade:
                    enabled: true
                    after: 5s
                """, dir);
        assertThat(config.admission().degrade().after()).contains(Duration.ofSeconds(5));
        assertThat(ConfigSettings.of(config)).contains(new ConfigSettings.Setting("admission.degrade.after", "5s",
                ConfigSettings.Applies.LIVE));
        assertThatThrownBy(() -> loader.parse(BACKEND_ONLY + "admission:\n  degrade:\n    after: soon\n", dir))
                .hasMessageContaining("admission.degrade.after");
    }

    @Test
    void degradeEnabledThatIsNotABooleanIsNamedByItsField() {
        assertThatThrownBy(() -> loader.parse(BACKEND_ONLY + "admission:\n  degrade:\n    enabled: maybe\n", dir))
                .hasMessageContaining("admission.degrade.enabled");
    }

    @Test
    void degradeRefusesAnUnknownKey() {
        assertThatThrownBy(() -> loader.parse(BACKEND_ONLY + "admission:\n  degrade:\n    waitFor: 5s\n", dir))
                .hasMessageContaining("admission.degrade: unknown field 'waitFor'");
    }
}
