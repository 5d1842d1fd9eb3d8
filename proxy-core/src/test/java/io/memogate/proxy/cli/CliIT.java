package io.memogate.proxy.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.memogate.broker.probe.mysql.MariaDbServer;
import io.memogate.proxy.postgres.embedded.DemoSchema;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import io.memogate.proxy.postgres.embedded.TestUsers;
import io.memogate.proxy.metrics.PrometheusText;
import io.memogate.proxy.testing.Await;
import java.io.IOException;
import java.lang.module.ModuleFinder;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged jar as a user starts it (what bin/memogate runs): `run` with a configuration file and
 * `demo`, each connected to through the proxy, then stopped with SIGTERM as a service manager would.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class CliIT {

    private static final Path JAR = Path.of("target", "memogate.jar");
    private static final Path LAUNCHER = Path.of("..", "bin", "memogate").toAbsolutePath().normalize();

    @Test
    void runServesFromAConfigurationFileAndStopsOnSigterm(EmbeddedPostgres pg, @TempDir Path dir) throws Exception {
        int port = freePort();
        Path config = dir.resolve("memogate.yaml");
        Files.writeString(config, """
                listeners:
                  - host: 127.0.0.1
                    port: %d
                backends:
                  - name: main
                    host: %s
                    port: %d
                    tls: { mode: disable }
                limits:
                  shutdownTimeout: 1s
                admin:
                  http: { port: 0 }
                """.formatted(port, pg.host(), pg.port()));
        Path log = dir.resolve("memogate.log");
        Process process = start(List.of("run", "--config", config.toString()), log);
        Lines output = new Lines(log);
        try {
            Matcher admin = Pattern.compile("(http://127\\.0\\.0\\.1:\\d+)/metrics").matcher(output.await("admin HTTP: metrics on"));
            assertThat(admin.find()).as(output.seen()).isTrue();
            output.await("listening on");
            assertThat(awaitHealthy(URI.create(admin.group(1) + "/health"))).isEqualTo("200 {\"status\":\"UP\",\"broker\":\"off\"}");
            try (Connection connection = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/demo",
                    TestUsers.SCRAM_USER, TestUsers.SCRAM_PASSWORD);
                    Statement statement = connection.createStatement();
                    ResultSet rows = statement.executeQuery("select count(*) from sales")) {
                rows.next();
                assertThat(rows.getInt(1)).isPositive();
            }
        } finally {
            process.destroy(); // SIGTERM
        }
        assertThat(process.waitFor(20, TimeUnit.SECONDS)).as("stopped after SIGTERM").isTrue();
        output.await("stopped");
    }

    @Test
    void runReloadsItsFileOnSighupAndKeepsServing(EmbeddedPostgres pg, @TempDir Path dir) throws Exception {
        // With SIGHUP's default action, whatever this test runs under (a build started with nohup passes
        // SIGHUP on ignored, which the jar cannot undo: see the next two tests).
        reloadsOnSighupAndKeepsServing(pg, dir, config -> {
            List<String> withSighup = new ArrayList<>(List.of("env", "--default-signal=HUP"));
            withSighup.addAll(command(List.of(), List.of("run", "--config", config.toString())).command());
            return new ProcessBuilder(withSighup);
        });
    }

    /** nohup starts its command with SIGHUP ignored, which the JVM would keep; the launcher restores it. */
    @Test
    void theLaunchersRunReloadsOnSighupEvenUnderNohup(EmbeddedPostgres pg, @TempDir Path dir) throws Exception {
        reloadsOnSighupAndKeepsServing(pg, dir, config -> {
            ProcessBuilder launcher = new ProcessBuilder("nohup", LAUNCHER.toString(), "run", "--config",
                    config.toString());
            launcher.environment().put("JAVA_HOME", System.getProperty("java.home"));
            return launcher;
        });
    }

    @Test
    void theJarStartedWithSighupIgnoredSaysSighupCannotReloadIt(@TempDir Path dir) throws Exception {
        warnsOnceThatSighupCannotReload(dir, config -> {
            List<String> nohupJava = new ArrayList<>(List.of("nohup"));
            nohupJava.addAll(command(List.of(), List.of("run", "--config", config.toString())).command());
            return new ProcessBuilder(nohupJava);
        }, "started with SIGHUP ignored (as nohup does)");
    }

    private void reloadsOnSighupAndKeepsServing(EmbeddedPostgres pg, Path dir, Function<Path, ProcessBuilder> starter)
            throws Exception {
        int port = freePort();
        Path config = dir.resolve("memogate.yaml");
        String yaml = """
                listeners: [{host: 127.0.0.1, port: %d}]
                backends: [{name: main, host: %s, port: %d, tls: {mode: disable}}]
                limits: {shutdownTimeout: 1s}
                admin:
                  http: {port: 0}
                  users: [%s]
                  watchInterval: 0
                admission: {cpus: 1, tiers: {small: {limit: %d}}}
                """;
        Files.writeString(config, yaml.formatted(port, pg.host(), pg.port(), TestUsers.SCRAM_USER, 3));
        Path log = dir.resolve("memogate.log");
        Process process = starter.apply(config).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        Lines output = new Lines(log);
        try {
            output.await("listening on");
            assertThat(smallLimit(port)).isEqualTo("3");
            Files.writeString(config, yaml.formatted(port, pg.host(), pg.port(), TestUsers.SCRAM_USER, 5));

            Process hangup = new ProcessBuilder("kill", "-HUP", String.valueOf(process.pid())).start();
            assertThat(hangup.waitFor(10, TimeUnit.SECONDS) && hangup.exitValue() == 0).isTrue();

            assertThat(output.await("configuration reloaded")).contains("trigger=\"SIGHUP\"")
                    .contains("admission.tiers.small.limit: 3 -> 5 (live)");
            assertThat(smallLimit(port)).isEqualTo("5");
            assertThat(process.isAlive()).as("SIGHUP reloads; it no longer stops the JVM").isTrue();
        } finally {
            process.destroy();
        }
        assertThat(process.waitFor(20, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void runWithoutSighupSupportSaysSoOnceAndStillStopsCleanly(@TempDir Path dir) throws Exception {
        // A runtime without module jdk.unsupported (a jlink image can be built so) has no sun.misc.Signal.
        String withoutUnsupported = ModuleFinder.ofSystem().findAll().stream()
                .map(module -> module.descriptor().name())
                .filter(name -> !name.equals("jdk.unsupported"))
                .collect(Collectors.joining(","));
        List<String> jvmOptions = List.of("--limit-modules", withoutUnsupported);
        warnsOnceThatSighupCannotReload(dir, config -> command(jvmOptions, List.of("run", "--config", config.toString())),
                "no module jdk.unsupported");
    }

    /** `run` started by {@code starter} says at start that SIGHUP cannot reload it, why, and what can. */
    private static void warnsOnceThatSighupCannotReload(Path dir, Function<Path, ProcessBuilder> starter, String why)
            throws Exception {
        Path config = dir.resolve("memogate.yaml");
        Files.writeString(config, """
                listeners: [{host: 127.0.0.1, port: 0}]
                backends: [{name: main, host: 127.0.0.1, port: 5, tls: {mode: disable}}]
                limits: {shutdownTimeout: 1s}
                admin: {http: {port: 0}}
                """);
        Path log = dir.resolve("memogate.log");
        Process process = starter.apply(config).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        Lines output = new Lines(log);
        try {
            assertThat(output.await("SIGHUP cannot be handled")).contains(why)
                    .contains("reload with the console's RELOAD or by editing the file");
        } finally {
            process.destroy(); // SIGTERM
        }
        assertThat(process.waitFor(20, TimeUnit.SECONDS)).as("stopped after SIGTERM").isTrue();
        output.await("stopped");
        assertThat(output.seen()).doesNotContain("Exception");
    }

    /** SMALL's limit as the admin console shows it. */
    private static String smallLimit(int port) throws Exception {
        Properties props = new Properties();
        props.setProperty("user", TestUsers.SCRAM_USER);
        props.setProperty("password", TestUsers.SCRAM_PASSWORD);
        props.setProperty("preferQueryMode", "simple");
        try (Connection console = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/memogate", props);
                Statement statement = console.createStatement(); ResultSet rows = statement.executeQuery("SHOW TIERS")) {
            rows.next();
            assertThat(rows.getString("tier")).isEqualTo("small");
            return rows.getString("limit");
        }
    }

    @Test
    void demoPrintsWhereToConnectAndCleansUpOnSigterm(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("demo.log");
        Process process = start(List.of("demo", "--port", "0", "--metrics-port", "0"), log);
        Lines output = new Lines(log);
        Path dataDirectory;
        try {
            String proxyLine = output.await("proxy: ");
            output.await("direct: ");
            String metricsLine = output.await("metrics: ");
            assertThat(output.await("admin: ")).contains("@127.0.0.1:").contains("/memogate");
            Matcher metrics = Pattern.compile("^metrics: (http://127\\.0\\.0\\.1:\\d+/metrics)$").matcher(metricsLine);
            assertThat(metrics.find()).as(metricsLine).isTrue();
            URI metricsUrl = URI.create(metrics.group(1));
            Matcher url = Pattern.compile("proxy: postgresql://memogate:memogate@127\\.0\\.0\\.1:(\\d+)/demo").matcher(proxyLine);
            assertThat(url.find()).as(proxyLine).isTrue();
            Matcher data = Pattern.compile("data in (\\S+)").matcher(output.seen());
            assertThat(data.find()).as(output.seen()).isTrue();
            dataDirectory = Path.of(data.group(1));
            assertThat(dataDirectory).exists();
            try (Connection connection = DriverManager.getConnection(
                    "jdbc:postgresql://127.0.0.1:" + url.group(1) + "/demo", "memogate", "memogate");
                    Statement statement = connection.createStatement();
                    ResultSet rows = statement.executeQuery(
                            "select count(*) from information_schema.tables where table_schema = 'public'")) {
                rows.next();
                assertThat(rows.getInt(1)).as("fact table and 20+ dimensions").isGreaterThan(20);
                assertThat(PrometheusText.awaitSample(metricsUrl, "memogate_client_connections", v -> v == 1)
                        .value("memogate_client_connections")).as("this connection, on the demo's metrics").contains(1.0);
                assertThat(PrometheusText.awaitSample(metricsUrl, "memogate_broker_mode{mode=\"live\",server=\"demo\"}", v -> v == 1)
                        .value("memogate_broker_mode{mode=\"live\",server=\"demo\"}")).as("the demo's broker polls the server")
                        .contains(1.0);
                assertThat(output.await("admission: ")).contains("gateways on");
                // The demo's user is an admin: the console answers on the proxy's port.
                assertThat(smallLimit(Integer.parseInt(url.group(1)))).as("SHOW TIERS as the demo user").isNotBlank();
            }
        } finally {
            process.destroy();
        }
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(dataDirectory).as("temporary files removed").doesNotExist();
    }

    /**
     * {@code demo --server mariadb}: a private MariaDB with the demo warehouse behind a mysql listener; the
     * {@code mariadb} command-line client reads the admin console's SHOW TIERS and runs a 20-table report of the
     * demo through the proxy, and the broker polls the server. SIGTERM stops the server too and removes its directory.
     */
    @Test
    void mariadbDemoServesTheWarehouseToTheMariadbClientAndCleansUpOnSigterm(@TempDir Path dir) throws Exception {
        assumeTrue(MariaDbServer.missing().isEmpty(), MariaDbServer.missing());
        Path log = dir.resolve("demo.log");
        Process process = start(List.of("demo", "--server", "mariadb", "--port", "0", "--metrics-port", "0"), log);
        Lines output = new Lines(log);
        Path dataDirectory;
        try {
            Matcher data = Pattern.compile("data in (\\S+)").matcher(output.await("MariaDB started on"));
            assertThat(data.find()).isTrue();
            dataDirectory = Path.of(data.group(1));
            String proxyLine = output.await("proxy: ");
            Matcher client = Pattern.compile("proxy: mariadb -h 127\\.0\\.0\\.1 -P (\\d+) -u memogate -pmemogate demo$")
                    .matcher(proxyLine);
            assertThat(client.find()).as(proxyLine).isTrue();
            assertThat(output.await("jdbc: ")).contains("jdbc:mariadb://127.0.0.1:" + client.group(1) + "/demo");
            Matcher metrics = Pattern.compile("^metrics: (http://127\\.0\\.0\\.1:\\d+/metrics)").matcher(output.await("metrics: "));
            assertThat(metrics.find()).isTrue();
            assertThat(output.await("admin: ")).contains("admin: mariadb -h 127.0.0.1 -P " + client.group(1)
                    + " -u memogate -pmemogate memogate (SHOW TIERS");
            assertThat(output.await("admission: ")).contains("gateways on");

            Process console = new ProcessBuilder(MariaDbServer.CLIENT.toString(), "--no-defaults", "-h", "127.0.0.1",
                    "-P", client.group(1), "-u", "memogate", "-pmemogate", "--batch", "memogate", "-e", "SHOW TIERS")
                    .redirectErrorStream(true).start();
            String tiers = new String(console.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(console.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(console.exitValue()).as(tiers).isZero();
            assertThat(tiers).as("the admin console names the MariaDB server's tiers").contains("demo\tsmall")
                    .contains("demo\tlarge");

            String report = DemoSchema.exampleQueries().getFirst();
            Process mariadb = new ProcessBuilder(MariaDbServer.CLIENT.toString(), "--no-defaults", "-h", "127.0.0.1",
                    "-P", client.group(1), "-u", "memogate", "-pmemogate", "--batch", "demo", "-e", report)
                    .redirectErrorStream(true).start();
            String answer = new String(mariadb.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(mariadb.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(mariadb.exitValue()).as(answer).isZero();
            assertThat(answer.lines().findFirst()).as(answer)
                    .contains("country_name\tdepartment_name\tfiscal_quarter\tsales_count\tmanufacturers\trevenue");
            assertThat(answer.lines().count()).as("the header and 25 rows").isEqualTo(26);
            URI metricsUrl = URI.create(metrics.group(1));
            assertThat(PrometheusText.awaitSample(metricsUrl, "memogate_broker_mode{mode=\"live\",server=\"demo\"}", v -> v == 1)
                    .value("memogate_broker_mode{mode=\"live\",server=\"demo\"}")).as("the demo's broker polls MariaDB")
                    .contains(1.0);
        } finally {
            process.destroy();
        }
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(dataDirectory).as("the server's files removed").doesNotExist();
    }

    @Test
    void versionNamesTheReleaseTheJarWasBuiltFrom(@TempDir Path dir) throws Exception {
        Failure finished = failedStart(List.of(), List.of("--version"), dir);

        assertThat(finished.exit()).isZero();
        assertThat(finished.output().strip()).isEqualTo("memogate " + System.getProperty("memogate.version"));
    }

    @Test
    void runOnATakenPortSaysSoInOneLineAndExits3(@TempDir Path dir) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            Path config = dir.resolve("memogate.yaml");
            Files.writeString(config, """
                    listeners: [{host: 127.0.0.1, port: %d}]
                    backends: [{name: main, host: 127.0.0.1, port: 5432, tls: {mode: disable}}]
                    admin: {http: {port: 0}}
                    """.formatted(taken.getLocalPort()));

            Failure failure = failedStart(List.of(), List.of("run", "--config", config.toString()), dir);

            assertThat(failure.exit()).isEqualTo(MemogateCommand.EXIT_CANNOT_LISTEN);
            assertThat(failure.line()).isEqualTo("memogate: cannot listen on 127.0.0.1:" + taken.getLocalPort()
                    + ": address already in use (is another proxy or PgBouncer running? stop it or change "
                    + "listeners[0].port in " + config + ")");
        }
    }

    @Test
    void runOnATakenAdminPortSaysSoInOneLineAndExits3(@TempDir Path dir) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            Path config = dir.resolve("memogate.yaml");
            Files.writeString(config, """
                    listeners: [{host: 127.0.0.1, port: 0}]
                    backends: [{name: main, host: 127.0.0.1, port: 5432, tls: {mode: disable}}]
                    admin: {http: {port: %d}}
                    """.formatted(taken.getLocalPort()));

            Failure failure = failedStart(List.of(), List.of("run", "--config", config.toString()), dir);

            assertThat(failure.exit()).isEqualTo(MemogateCommand.EXIT_CANNOT_LISTEN);
            assertThat(failure.line()).isEqualTo("memogate: cannot listen for admin HTTP on 127.0.0.1:"
                    + taken.getLocalPort() + ": address already in use (is another Memogate running? stop it or "
                    + "change admin.http.port in " + config + ")");
        }
    }

    @Test
    void demoOnATakenPortSaysSoBeforeStartingPostgres(@TempDir Path dir) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            Failure failure = failedStart(List.of(),
                    List.of("demo", "--port", String.valueOf(taken.getLocalPort()), "--metrics-port", "0"), dir);

            assertThat(failure.exit()).isEqualTo(MemogateCommand.EXIT_CANNOT_LISTEN);
            assertThat(failure.line()).isEqualTo("memogate: cannot listen on 127.0.0.1:" + taken.getLocalPort()
                    + ": address already in use (is another proxy or PgBouncer running? stop it or choose another --port)");
            // Checked before anything slow: no PostgreSQL was started for a demo that cannot listen.
            assertThat(failure.output()).doesNotContain("starting PostgreSQL").doesNotContain("data in ");
        }
    }

    @Test
    void demoWithATakenPostgresPortLeavesNothingBehindAndExits4(@TempDir Path dir) throws Exception {
        // The embedded server's directories go to java.io.tmpdir: here, a directory of this test's own,
        // which the server's account (nobody, when the tests run as root) must be able to enter.
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path tmp = Files.createDirectory(dir.resolve("tmp"));
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            Failure failure = failedStart(List.of("-Djava.io.tmpdir=" + tmp),
                    List.of("demo", "--postgres-port", String.valueOf(taken.getLocalPort()), "--port", "0",
                            "--metrics-port", "0"), dir);

            assertThat(failure.exit()).isEqualTo(MemogateCommand.EXIT_EMBEDDED_POSTGRES);
            assertThat(failure.line()).isEqualTo("memogate: cannot start the embedded PostgreSQL: port "
                    + taken.getLocalPort() + " on 127.0.0.1 is already in use (is a PostgreSQL server running there? "
                    + "choose another --postgres-port, or leave it out for a free one)");
        }
        try (Stream<Path> left = Files.list(tmp)) {
            assertThat(left.map(path -> path.getFileName().toString()))
                    .as("only the unpacked binaries, which are kept for the next start")
                    .allMatch(name -> name.startsWith("memogate-postgres-"));
        }
        assertNoServerRunsFrom(tmp.resolve("memogate-pg-").toString());
    }

    /** No process runs with a path that starts with {@code instance} on its command line (postgres -D ...). */
    private static void assertNoServerRunsFrom(String instance) {
        assertThat(ProcessHandle.allProcesses()
                .filter(process -> process.info().commandLine().orElse("").contains(instance)))
                .as("postgres processes of the failed start").isEmpty();
    }

    /** How a start that failed ended: the exit code, and what it printed. */
    private record Failure(int exit, String stderr, String output) {

        /** The one line Memogate printed itself, after checking there is one and no stack trace. */
        String line() {
            List<String> own = stderr.lines().filter(line -> line.startsWith("memogate:")).toList();
            assertThat(own).as(output).hasSize(1);
            assertThat(output).doesNotContain("Exception").doesNotContain("at io.netty").doesNotContain("\tat ");
            return own.getFirst();
        }
    }

    /** Starts the jar, which must exit within a minute (a demo unpacks and starts PostgreSQL first). */
    private static Failure failedStart(List<String> jvmOptions, List<String> arguments, Path dir) throws Exception {
        Path stdout = dir.resolve("stdout.log");
        Path stderr = dir.resolve("stderr.log");
        Process process = command(jvmOptions, arguments)
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("still running after a minute:\n" + Files.readString(stderr));
        }
        String errors = Files.readString(stderr);
        return new Failure(process.exitValue(), errors, Files.readString(stdout) + errors);
    }

    /** Status and body of /health once it is 200, or after 10 seconds: UP follows "listening on" by a moment. */
    private static String awaitHealthy(URI health) throws InterruptedException {
        HttpClient client = HttpClient.newHttpClient();
        HttpRequest request = HttpRequest.newBuilder(health).build();
        AtomicReference<HttpResponse<String>> response = new AtomicReference<>();
        Await.holdsWithin(Duration.ofSeconds(10), () -> {
            response.set(client.send(request, HttpResponse.BodyHandlers.ofString()));
            return response.get().statusCode() == 200;
        });
        return response.get().statusCode() + " " + response.get().body();
    }

    private static Process start(List<String> arguments, Path output) throws IOException {
        return start(List.of(), arguments, output);
    }

    private static Process start(List<String> jvmOptions, List<String> arguments, Path output) throws IOException {
        return command(jvmOptions, arguments).redirectErrorStream(true).redirectOutput(output.toFile()).start();
    }

    private static ProcessBuilder command(List<String> jvmOptions, List<String> arguments) {
        assertThat(JAR).as("the packaged jar (built in the package phase)").exists();
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new java.util.ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", JAR.toString()));
        command.addAll(arguments);
        return new ProcessBuilder(command);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /**
     * The process's output, redirected to a file and read as it grows. (Reading the pipe instead races
     * with the JDK closing it when the process exits, losing the last lines.)
     */
    private static final class Lines {
        private final Path file;
        private final StringBuilder seen = new StringBuilder();
        private int consumed;

        Lines(Path file) {
            this.file = file;
        }

        String await(String fragment) throws InterruptedException {
            AtomicReference<String> found = new AtomicReference<>();
            if (!Await.holdsWithin(Duration.ofSeconds(60), () -> {
                found.set(nextLineWith(fragment));
                return found.get() != null;
            })) {
                throw new AssertionError("no line with '" + fragment + "' in:\n" + seen);
            }
            return found.get();
        }

        /** The first line with {@code fragment} among those written since the last look, or null. */
        private String nextLineWith(String fragment) throws IOException {
            String all = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
            int end;
            while ((end = all.indexOf('\n', consumed)) >= 0) {
                String line = all.substring(consumed, end);
                consumed = end + 1;
                seen.append(line).append('\n');
                if (line.contains(fragment)) {
                    return line;
                }
            }
            return null;
        }

        String seen() {
            return seen.toString();
        }
    }
}
