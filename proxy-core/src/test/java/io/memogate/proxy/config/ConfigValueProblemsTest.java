package io.memogate.proxy.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a user reads when values are wrong: unparseable, out of range, or in conflict with each other. One
 * line per mistake, each naming the field; all of them in one report.
 */
class ConfigValueProblemsTest {

    private static final String BACKEND = "backends:\n  - {name: main, host: localhost}\n";

    private final ConfigLoader loader = new ConfigLoader();

    @TempDir
    Path dir;

    @Test
    void valuesThatDoNotParse() {
        assertThat(problems("""
                listeners:
                  - port: 6432.5
                backends:
                  - name: main
                    host: localhost
                    port: abc
                    default: yes
                    tls: {mode: verify_full}
                limits:
                  maxMessageBytes: 12XB
                  connectTimeout: 5sec
                  maxClientConnections: many
                """)).containsExactly(
                "listeners[0].port must be a whole number, was '6432.5'",
                "backends[0].port must be a whole number, was 'abc'",
                "backends[0].default must be true or false, was 'yes'",
                "backends[0].tls.mode must be one of disable, prefer, require, verify-full, was 'verify_full'",
                "limits.maxMessageBytes: '12XB' is not a size: write a whole number of bytes, or a whole number with "
                        + "unit B, kB, KiB, MB, MiB, GB or GiB (k, M and G are powers of 1024, as in PostgreSQL)",
                "limits.connectTimeout: '5sec' is not a duration: write a whole number with unit ms, s, min, h or d "
                        + "(e.g. 500ms, 5s, 2min), or a plain number of milliseconds",
                "limits.maxClientConnections must be a whole number, was 'many'");
    }

    @Test
    void portsOutOfRange() {
        assertThat(problems("""
                listeners:
                  - port: 0
                  - port: 65536
                  - port: -1
                backends:
                  - {name: a, host: h, port: 5432}
                  - {name: b, host: h, port: 70000, databases: [x]}
                  - {name: c, host: h, port: 0, databases: [y]}
                  - {name: d, host: h, port: 99999999999, databases: [z]}
                """)).containsExactly(
                // Too large for an int: found while parsing, so before the range checks.
                "backends[3].port must be in 1..65535, was 99999999999",
                "listeners[1].port must be in 0..65535, was 65536",
                "listeners[2].port must be in 0..65535, was -1",
                "backends[1].port must be in 1..65535, was 70000",
                "backends[2].port must be in 1..65535, was 0");
    }

    @Test
    void limitsOutOfRange() {
        assertThat(problems(BACKEND + """
                limits:
                  maxMessageBytes: 2GiB
                  connectTimeout: 0
                  shutdownTimeout: 0
                  maxClientConnections: 0
                  loginTimeout: 0
                """)).containsExactly(
                "limits.maxMessageBytes must be between 1KiB and 1GiB, was 2GiB",
                "limits.connectTimeout must be between 1ms and 1h, was 0s",
                "limits.loginTimeout must be between 1ms and 1h, was 0s",
                "limits.maxClientConnections must be at least 1, was 0");
        assertThat(problems(BACKEND + "limits: {maxMessageBytes: 1000, connectTimeout: 2h}\n")).containsExactly(
                "limits.maxMessageBytes must be between 1KiB and 1GiB, was 1000B",
                "limits.connectTimeout must be between 1ms and 1h, was 2h");
        assertThat(problems(BACKEND + "limits: {maxMessageBytes: 8GiB, maxClientConnections: 3000000000}\n"))
                .containsExactly("limits.maxMessageBytes must be between 1KiB and 1GiB, was 8GiB",
                        "limits.maxClientConnections must be at most 2147483647, was 3000000000");
    }

    @Test
    void adminEndpointValues() {
        assertThat(problems(BACKEND + "admin: {http: {port: 70000}}\n"))
                .containsExactly("admin.http.port must be in 0..65535, was 70000");
        assertThat(problems(BACKEND + "admin: {http: {port: -1, host: ' '}}\n")).containsExactly(
                "admin.http.host must not be empty",
                "admin.http.port must be in 0..65535, was -1");
        assertThat(problems(BACKEND + "admin: {http: {port: 99999999999, enabled: yes}}\n")).containsExactly(
                "admin.http.port must be in 0..65535, was 99999999999",
                "admin.http.enabled must be true or false, was 'yes'");
        assertThat(problems(BACKEND + "admin: {http: {port: 9930s}}\n"))
                .containsExactly("admin.http.port must be a whole number, was '9930s'");
    }

    @Test
    void adminConsoleValues() {
        assertThat(problems(BACKEND + "admin: {users: [dba, '', ~], authDatabase: ' ', watchInterval: 2 weeks}\n"))
                .containsExactly(
                        "admin.watchInterval: '2 weeks' is not a duration: " + Durations.ACCEPTED,
                        "admin.users[1] must not be empty",
                        "admin.users[2] must not be empty",
                        "admin.authDatabase must not be empty");
    }

    @Test
    void consoleUsersNeedADefaultBackendAndNoBackendMayRouteTheConsolesName() {
        assertThat(problems("""
                backends:
                  - {name: main, host: h, databases: [app, memogate]}
                admin: {users: [dba]}
                """)).containsExactly(
                "admin.users needs a default backend: console logins are authenticated by its server "
                        + "(database admin.authDatabase); set default: true on one backend",
                "backends[0].databases lists 'memogate', the name of the admin console, which the proxy serves "
                        + "itself; a server database of that name cannot be reached through the proxy");
    }

    @Test
    void adminEndpointOnAListenersAddress() {
        assertThat(problems(BACKEND + """
                listeners:
                  - {port: 6432}
                  - {port: 9930}
                admin:
                  http: {host: 127.0.0.1}
                """)).containsExactly("admin.http: 127.0.0.1:9930 is also the address of listeners[1]");
        // Nothing binds a disabled endpoint.
        assertThat(loader.parse(BACKEND + """
                listeners: [{port: 9930}]
                admin: {http: {enabled: false}}
                """, dir).admin().http().enabled()).isFalse();
    }

    @Test
    void admissionValuesThatDoNotParse() {
        assertThat(problems(BACKEND + """
                admission:
                  enabled: maybe
                  waitNotice: soon
                  holdWhileRunning: -1s
                  cpus: eight
                  staticThreshold: 1.5MiB
                  statementRecords: all
                  tiers:
                    small: {limit: x, fraction: quarter, maxQueue: 1.5, timeout: 30}
                    medium: {fraction: NaN}
                    large: {timeout: 5 minutes}
                """)).containsExactly(
                "admission.enabled must be true or false, was 'maybe'",
                "admission.waitNotice: 'soon' is not a duration: " + Durations.ACCEPTED,
                "admission.holdWhileRunning: '-1s' is not a duration: " + Durations.ACCEPTED,
                "admission.cpus must be a whole number, was 'eight'",
                "admission.staticThreshold: '1.5MiB' is not a size: " + ByteSize.ACCEPTED,
                "admission.statementRecords must be a whole number, was 'all'",
                "admission.tiers.small.limit must be a whole number, was 'x'",
                "admission.tiers.small.fraction must be a number, was 'quarter'",
                "admission.tiers.small.maxQueue must be a whole number, was '1.5'",
                "admission.tiers.medium.fraction must be a number, was 'NaN'",
                "admission.tiers.large.timeout: '5 minutes' is not a duration: " + Durations.ACCEPTED);
    }

    @Test
    void admissionValuesOutOfRange() {
        assertThat(problems(BACKEND + """
                admission:
                  cpus: 0
                  statementRecords: -1
                  tiers:
                    small: {limit: 0, fraction: 1.5, maxQueue: -1, timeout: 0}
                    medium: {limit: 3000000000, fraction: 0}
                    large: {limit: -2}
                """)).containsExactly(
                "admission.cpus must be in 1..65536, was 0",
                "admission.statementRecords must be in 0..1000000, was -1",
                "admission.tiers.small.limit must be at least 1, was 0",
                "admission.tiers.small.fraction must be in (0, 1], was 1.5",
                "admission.tiers.small.maxQueue must be at least 0, was -1",
                "admission.tiers.small.timeout must be positive, was 0s",
                "admission.tiers.medium.limit must be at most 2147483647, was 3000000000",
                "admission.tiers.medium.fraction must be in (0, 1], was 0",
                "admission.tiers.large.limit must be at least 1, was -2");
        assertThat(problems(BACKEND + "admission: {cpus: 65537, statementRecords: 1000001, tiers: {medium: {fraction: -0.25}}}\n"))
                .containsExactly("admission.cpus must be in 1..65536, was 65537",
                        "admission.statementRecords must be in 0..1000000, was 1000001",
                        "admission.tiers.medium.fraction must be in (0, 1], was -0.25");
        // The bounds themselves are accepted.
        MemogateConfig edges = loader.parse(BACKEND + """
                admission:
                  cpus: 65536
                  waitNotice: 0
                  holdWhileRunning: 0
                  staticThreshold: 0
                  statementRecords: 1000000
                  tiers: {small: {limit: 1, fraction: 1, maxQueue: 0, timeout: 1ms}}
                """, dir);
        assertThat(edges.admission().statementRecords()).isEqualTo(1_000_000);
        assertThat(edges.admission().gatewaySettings().small().fraction()).isEqualTo(1.0);
        assertThat(edges.admission().gatewaySettings().medium().limit()).isEqualTo(65536);
        assertThat(edges.admission().waitNotice()).isZero();
        assertThat(edges.admission().holdWhileRunning()).isZero();
    }

    @Test
    void brokerValuesThatDoNotParse() {
        assertThat(problems(BACKEND + """
                broker:
                  interval: often
                  gracePeriod: -1s
                  compileShare: half
                  hostMemory: 16G
                  coLocated: maybe
                  staticTarget: lots
                  minimumTarget: 1e6
                """)).containsExactly(
                "broker.interval: 'often' is not a duration: " + Durations.ACCEPTED,
                "broker.gracePeriod: '-1s' is not a duration: " + Durations.ACCEPTED,
                "broker.compileShare must be a number, was 'half'",
                "broker.hostMemory: '16G' is not a size: " + ByteSize.ACCEPTED,
                "broker.coLocated must be true or false, was 'maybe'",
                "broker.staticTarget: 'lots' is not a size: " + ByteSize.ACCEPTED,
                "broker.minimumTarget: '1e6' is not a size: " + ByteSize.ACCEPTED);
    }

    @Test
    void brokerValuesOutOfRange() {
        assertThat(problems(BACKEND + """
                broker:
                  interval: 5ms
                  compileShare: 0
                  hostMemory: 0
                  staticTarget: 0
                  minimumTarget: 0B
                """)).containsExactly(
                "broker.interval must be at least 10ms, was 5ms",
                "broker.compileShare must be in (0, 1], was 0",
                "broker.hostMemory must be positive, was 0B",
                "broker.staticTarget must be positive, was 0B",
                "broker.minimumTarget must be positive, was 0B");
        assertThat(problems(BACKEND + "broker: {compileShare: 1.01, staticTarget: 64MiB, minimumTarget: 128MiB}\n"))
                .containsExactly("broker.compileShare must be in (0, 1], was 1.01",
                        "broker.minimumTarget must not be more than broker.staticTarget (64MiB), was 128MiB");
        // A target below the default floor is fine when the floor comes down with it.
        assertThat(loader.parse(BACKEND + "broker: {interval: 10ms, gracePeriod: 0, staticTarget: 32MiB, "
                + "minimumTarget: 32MiB}\n", dir).broker().staticTargetBytes()).isEqualTo(32L << 20);
    }

    @Test
    void theMonitorNeedsAUserAndABackendToWatch() {
        assertThat(problems(BACKEND + "broker: {monitor: {password: x}}\n")).containsExactly(
                "broker.monitor.user is required: the login role the broker monitors with, granted pg_monitor");
        assertThat(problems(BACKEND + "broker: {monitor: {user: ' ', database: '', backend: mian}}\n")).containsExactly(
                "broker.monitor.user is required: the login role the broker monitors with, granted pg_monitor",
                "broker.monitor.database must not be empty",
                "broker.monitor.backend must name a configured backend (main), was 'mian'");
        // Without a backend named, the monitor watches every backend's server, default or not.
        MemogateConfig unnamed = loader.parse("""
                backends:
                  - {name: a, host: h, databases: [x]}
                  - {name: b, host: h2, databases: [y]}
                broker:
                  monitor: {user: m}
                """, dir);
        assertThat(unnamed.brokerSettings("a").orElseThrow().jdbcUrl()).contains("//h:");
        assertThat(unnamed.brokerSettings("b").orElseThrow().jdbcUrl()).contains("//h2:");
        // Naming one watches that one only; without a monitor, nothing is watched.
        assertThat(loader.parse("""
                backends: [{name: a, host: h, databases: [x]}]
                broker: {monitor: {user: m, backend: a}}
                """, dir).brokerSettings("a")).isPresent();
        assertThat(loader.parse("""
                backends: [{name: a, host: h, databases: [x]}, {name: b, host: h, databases: [y]}]
                broker: {monitor: {user: m, backend: a}}
                """, dir).brokerSettings("b")).as("not the backend named").isEmpty();
        assertThat(loader.parse("backends: [{name: a, host: h, databases: [x]}]\nbroker: {}\n", dir)
                .brokerSettings()).isEmpty();
    }

    @Test
    void missingOrEmptySections() {
        assertThat(problems("limits: {}\n")).containsExactly("backends is required: name at least one backend (name, host)");
        assertThat(problems("listeners: []\nbackends: []\n")).containsExactly(
                "listeners must name at least one listener (or be left out for 127.0.0.1:6432)",
                "backends must name at least one backend");
        assertThat(problems("backends:\n  -\n  - {name: b, host: h}\n")).containsExactly("backends[0] is empty");
    }

    @Test
    void requiredBackendFieldsAndNames() {
        assertThat(problems("""
                backends:
                  - port: 5432
                  - {name: "my db", host: h, databases: [x]}
                  - {name: "", host: " ", databases: [y, "", y]}
                """)).containsExactly(
                "backends[0].name is required",
                "backends[0].host is required",
                "backends[1].name must consist of letters, digits, '_', '.' and '-', was 'my db'",
                "backends[2].name is required",
                "backends[2].host is required",
                "backends[2].databases[1] must not be empty",
                "backends[2].databases lists 'y' more than once");
    }

    @Test
    void duplicateBackendNames() {
        assertThat(problems("""
                backends:
                  - {name: main, host: a}
                  - {name: main, host: b, databases: [x]}
                """)).containsExactly("backends: name 'main' is used by more than one backend (backends[0], backends[1])");
    }

    @Test
    void moreThanOneDefaultBackend() {
        assertThat(problems("""
                backends:
                  - {name: main, host: a, default: true, databases: [x]}
                  - {name: other, host: b}
                """)).containsExactly("backends: at most one backend may be default, found 2 (main, other); "
                + "a backend that lists no databases is the default unless it says default: false");
    }

    @Test
    void aDatabaseRoutedToTwoBackends() {
        assertThat(problems("""
                backends:
                  - {name: a, host: h, databases: [demo, app]}
                  - {name: b, host: h, databases: [demo]}
                  - {name: c, host: h, databases: [app]}
                  - {name: d, host: h, databases: [app]}
                """)).containsExactly(
                "backends: database 'demo' is routed to both 'a' and 'b'",
                "backends: database 'app' is routed to 'a', 'c' and 'd'");
    }

    @Test
    void aBackendNoClientCanReach() {
        assertThat(problems("""
                backends:
                  - {name: a, host: h}
                  - {name: b, host: h, default: false}
                """)).containsExactly("backends[1] ('b') lists no databases and is not the default, so no client can reach it");
    }

    @Test
    void backendTlsRules() throws IOException {
        Files.writeString(dir.resolve("ca.pem"), "");
        assertThat(problems("""
                backends:
                  - {name: a, host: h, tls: {mode: verify-full}}
                  - {name: b, host: h, databases: [x], tls: {mode: require, trustedCertificates: ca.pem, serverName: db}}
                  - {name: c, host: h, databases: [y], tls: {mode: verify-full, trustedCertificates: gone.pem, serverName: ""}}
                """)).containsExactly(
                "backends[0].tls.trustedCertificates is required when mode is verify-full",
                "backends[1].tls.trustedCertificates is only used when mode is verify-full, but mode is require",
                "backends[1].tls.serverName is only used when mode is verify-full, but mode is require",
                "backends[2].tls.serverName must not be empty",
                "backends[2].tls.trustedCertificates: file not found: " + dir.resolve("gone.pem"));
    }

    @Test
    void aStrictBackendMustEncrypt() {
        assertThat(problems("""
                backends:
                  - {name: a, host: h, tls: {mode: prefer, strict: true}}
                  - {name: b, host: h, databases: [x], tls: {mode: require, strict: true}}
                """)).containsExactly("backends[0].tls.strict (TDS 8.0: TLS before anything else) encrypts always: "
                + "it needs mode require or verify-full, but mode is prefer");
    }

    @Test
    void aUnixSocketBackendCannotRequireTlsAndItsSocketPathMustFit() {
        String deep = "/" + "d".repeat(100);
        assertThat(problems("""
                backends:
                  - {name: a, host: /var/run/postgresql, tls: {mode: require}}
                  - {name: b, host: %s, databases: [x]}
                  - {name: c, host: /tmp, databases: [y], tls: {mode: prefer}}
                """.formatted(deep))).containsExactly(
                "backends[0].tls.mode is require, but backends[0].host names a Unix socket directory, and PostgreSQL"
                        + " does not use TLS on Unix sockets: set it to prefer or disable, or name the server's TCP"
                        + " host",
                "backends[1].host names a Unix socket directory, but the socket's path " + deep + "/.s.PGSQL.5432 is"
                        + " 115 bytes, over the 107 a Unix socket address holds");
    }

    @Test
    void aUnixSocketListenerNeedsItsDirectoryAPortAndNoTls() throws IOException {
        Files.writeString(dir.resolve("server.crt"), "");
        Files.writeString(dir.resolve("server.key"), "");
        assertThat(problems(BACKEND + """
                listeners:
                  - {host: %s, port: 6432}
                  - {host: /no/such/directory, port: 6432}
                  - {host: %s, port: 0}
                  - {host: %s, port: 6433, tls: {certificate: server.crt, privateKey: server.key}}
                """.formatted(dir, dir, dir))).containsExactly(
                "listeners[1].host: directory not found: /no/such/directory",
                "listeners[2].port names the Unix socket (.s.PGSQL.<port>) clients look for, so it cannot be 0",
                "listeners[3].tls cannot be used on a Unix socket: PostgreSQL clients do not ask for TLS there; leave"
                        + " it out, or listen on a TCP address for TLS");
    }

    @Test
    void listenerTlsFiles() throws IOException {
        Files.writeString(dir.resolve("server.key"), "");
        Files.createDirectories(dir.resolve("certs"));
        assertThat(problems(BACKEND + """
                listeners:
                  - port: 7001
                    tls: {certificate: /x/y.crt, privateKey: server.key}
                  - port: 7002
                    tls: {certificate: certs, privateKey: server.key}
                  - port: 7003
                    tls: {privateKey: server.key}
                """)).containsExactly(
                "listeners[2].tls.certificate is required",
                "listeners[0].tls.certificate: file not found: /x/y.crt",
                "listeners[1].tls.certificate: not a regular file: " + dir.resolve("certs"));
    }

    @Test
    void twoListenersOnOneAddress() {
        assertThat(problems(BACKEND + """
                listeners:
                  - {port: 7000}
                  - {host: 127.0.0.1, port: 7000}
                  - {port: 0}
                  - {port: 0}
                """)).containsExactly("listeners: 127.0.0.1:7000 is listed more than once (listeners[0], listeners[1])");
    }

    @Test
    void everyProblemAtOnceAndEachOnlyOnce() {
        // A host given as a list is also, to later steps, a missing host: reported once, as a list.
        List<String> problems = problems("""
                listners: []
                backends:
                  - name: main
                    host: [a, b]
                    port: 70000
                  - name: main
                    host: b
                    default: true
                limits:
                  connectTimeout: soon
                """);
        assertThat(problems).containsExactly(
                "unknown field 'listners' (line 1, column 1); known fields: admin, admission, backends, broker, "
                        + "estimator, fleet, limits, listeners, network, recycle",
                "backends[0].host must be a single value, was a list (line 4, column 11)",
                "limits.connectTimeout: 'soon' is not a duration: write a whole number with unit ms, s, min, h or d "
                        + "(e.g. 500ms, 5s, 2min), or a plain number of milliseconds",
                "backends[0].port must be in 1..65535, was 70000",
                "backends: name 'main' is used by more than one backend (backends[0], backends[1])",
                "backends: at most one backend may be default, found 2 (main, main); "
                        + "a backend that lists no databases is the default unless it says default: false");
    }

    /** io-uring and epoll's capitals are near misses of the words; the message lists the real ones. */
    @Test
    void aTransportThatDoesNotExist() {
        assertThat(problems(BACKEND + "network:\n  transport: io-uring\n")).containsExactly(
                "network.transport must be one of auto, io_uring, epoll, nio, was 'io-uring'");
        assertThat(problems(BACKEND + "network:\n  transport: EPOLL\n")).containsExactly(
                "network.transport must be one of auto, io_uring, epoll, nio, was 'EPOLL'");
        assertThat(problems(BACKEND + "network:\n  transprot: epoll\n")).singleElement().asString()
                .isEqualTo("network: unknown field 'transprot' (line 4, column 3); known fields: eventLoops, keepalive, "
                        + "transport");
    }

    @Test
    void keepaliveInWholeSecondsWithinTheKernelsLimits() {
        assertThat(problems(BACKEND + "network:\n  keepalive: {idle: 1500ms, interval: 10h, count: 200}\n"))
                .containsExactly(
                        "network.keepalive.idle must be 0 (the system's) or whole seconds up to 32767s, was 1500ms",
                        "network.keepalive.interval must be 0 (the system's) or whole seconds up to 32767s, was 10h",
                        "network.keepalive.count must be in 0..127 (0: the system's), was 200");
        assertThat(problems(BACKEND + "network:\n  keepalive: {count: -1}\n")).containsExactly(
                "network.keepalive.count must be in 0..127 (0: the system's), was -1");
    }

    /**
     * A plain number is milliseconds in every duration field, as docs/configuration.md says; where PostgreSQL reads
     * it as seconds (tcp_keepalives_idle) and the field would take it as seconds, the refusal says how
     * to write that. Not when the unit was written, nor when seconds would be refused too.
     */
    @Test
    void aRefusedPlainNumberThatWouldDoAsSecondsSaysHowToWriteSeconds() {
        assertThat(problems(BACKEND + """
                limits:
                  connectTimeout: 0
                broker:
                  interval: 5
                network:
                  keepalive: {idle: 60, interval: 1500ms}
                """)).containsExactly(
                "limits.connectTimeout must be between 1ms and 1h, was 0s",
                "broker.interval must be at least 10ms, was 5ms; a number without a unit is milliseconds: write 5s "
                        + "for seconds",
                "network.keepalive.idle must be 0 (the system's) or whole seconds up to 32767s, was 60ms; a number "
                        + "without a unit is milliseconds: write 60s for seconds",
                "network.keepalive.interval must be 0 (the system's) or whole seconds up to 32767s, was 1500ms");
        assertThat(loader.parse(BACKEND + "network:\n  keepalive: {idle: 60000}\n", dir).network().keepalive().idle())
                .as("a plain number keeps its meaning: milliseconds").isEqualTo(java.time.Duration.ofSeconds(60));
    }

    /**
     * The sections checked last (network) come out with the rest, in one report under the file's name,
     * not in a second one, without it, once the others are fixed.
     */
    @Test
    void aFilesProblemsInEverySectionComeInOneReportNamingTheFile() throws IOException {
        Path file = Files.writeString(dir.resolve("memogate.yaml"), """
                backends:
                  - {name: main, host: localhost, port: 70000}
                network:
                  keepalive: {idle: 1500ms}
                """);

        assertThatThrownBy(() -> loader.load(file)).hasMessage("invalid configuration " + file + " (2 problems):\n"
                + "  backends[0].port must be in 1..65535, was 70000\n"
                + "  network.keepalive.idle must be 0 (the system's) or whole seconds up to 32767s, was 1500ms");
    }

    @Test
    void eventLoopsOutOfRangeOrNotANumber() {
        assertThat(problems(BACKEND + "network:\n  eventLoops: 0\n")).containsExactly(
                "network.eventLoops must be in 1..1024, was 0");
        assertThat(problems(BACKEND + "network:\n  eventLoops: two\n")).containsExactly(
                "network.eventLoops must be a whole number, was 'two'");
        assertThat(problems(BACKEND + "network:\n  eventLoops: 99999999999\n")).containsExactly(
                "network.eventLoops must be in 1..1024, was 99999999999");
    }

    private List<String> problems(String yaml) {
        try {
            MemogateConfig config = loader.parse(yaml, dir);
            return fail("expected a ConfigException, got " + config);
        } catch (ConfigException e) {
            assertThat(e.getMessage()).endsWith(String.join("\n  ", e.problems()));
            return e.problems();
        }
    }
}
