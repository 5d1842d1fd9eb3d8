package io.memogate.proxy.it;

import static io.memogate.proxy.it.ConsoleClient.row;
import static io.memogate.proxy.it.ConsoleClient.rows;
import static io.memogate.proxy.it.StarSchema.WIDE;
import static io.memogate.proxy.it.StarSchema.star;
import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.Gateways;
import io.memogate.broker.gateway.Tier;
import io.memogate.broker.gateway.TierSettings;
import io.memogate.proxy.admission.AdmissionControl;
import io.memogate.proxy.admission.ServerAdmissions;
import io.memogate.proxy.cli.RunningProxy;
import io.memogate.proxy.config.AdminConfig;
import io.memogate.proxy.config.AdminHttpConfig;
import io.memogate.proxy.config.AdmissionConfig;
import io.memogate.proxy.config.BackendConfig;
import io.memogate.proxy.config.BackendTlsConfig;
import io.memogate.proxy.config.BrokerConfig;
import io.memogate.proxy.config.ConfigLoader;
import io.memogate.proxy.config.LimitsConfig;
import io.memogate.proxy.config.ListenerConfig;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.config.MonitorConfig;
import io.memogate.proxy.config.TlsMode;
import io.memogate.proxy.metrics.PrometheusText;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresOptions;
import io.memogate.proxy.postgres.embedded.PasswordKind;
import io.memogate.proxy.postgres.embedded.TestUsers;
import io.memogate.proxy.testing.Await;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two PostgreSQL servers behind one proxy, each with its own admission: a storm on one queues on that
 * server's gateways and leaves the other's untouched, each server's broker sets its own target from its
 * own memory settings, and the console and the metrics show one row set per server.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class TwoServersIT {

    private static final String USER = TestUsers.SCRAM_USER;
    private static final String PASSWORD = TestUsers.SCRAM_PASSWORD;
    /** The database the second server serves: a name of its own, since a database is routed to one backend. */
    private static final String REPORTS = "reports";

    /** The second server: a larger shared_buffers than the shared one leaves its broker a smaller target. */
    private static EmbeddedPostgres reports;

    private final ExecutorService threads = Executors.newCachedThreadPool();
    private RunningProxy proxy;

    @BeforeAll
    static void startSecondServer() throws SQLException {
        reports = EmbeddedPostgres.start(EmbeddedPostgresOptions.builder().setting("shared_buffers", "512MB").build());
        reports.createUser(USER, PASSWORD, PasswordKind.SCRAM);
        reports.execute("postgres", "ALTER ROLE " + USER + " SUPERUSER");
        StarSchema.ensure(reports, REPORTS);
    }

    @AfterAll
    static void stopSecondServer() {
        if (reports != null) {
            reports.close();
        }
    }

    @AfterEach
    void stop() {
        threads.shutdownNow();
        if (proxy != null) {
            proxy.close();
        }
    }

    /** One permit per tier on each server; each server watched by its own broker on an assumed 4 GiB host. */
    private static MemogateConfig config(EmbeddedPostgres main) {
        TierSettings one = new TierSettings(1, 0.25, 10, Duration.ofMinutes(2));
        GatewaySettings gateways = GatewaySettings.defaults(1).with(Tier.SMALL, one)
                .with(Tier.MEDIUM, one.withFraction(0.5)).with(Tier.LARGE, one.withFraction(1.0));
        BackendTlsConfig plain = BackendTlsConfig.of(TlsMode.DISABLE);
        return new MemogateConfig(List.of(ListenerConfig.of("127.0.0.1", 0)),
                List.of(new BackendConfig("alpha", main.host(), main.port(), List.of(StarSchema.DATABASE), true, plain),
                        new BackendConfig("beta", reports.host(), reports.port(), List.of(REPORTS), false, plain)),
                LimitsConfig.DEFAULTS.withShutdownTimeout(Duration.ofSeconds(1)),
                new AdminConfig(AdminHttpConfig.of("127.0.0.1", 0)).withUsers(USER),
                AdmissionConfig.defaults(1).withGatewaySettings(gateways),
                BrokerConfig.DEFAULTS.withMonitor(MonitorConfig.of(USER).withPassword(PASSWORD))
                        .withHostMemory(4L << 30));
    }

    @Test
    void aStormOnOneServerQueuesOnItsOwnGatewaysOnly(EmbeddedPostgres main) throws Exception {
        StarSchema.ensure(main);
        proxy = RunningProxy.start(config(main));
        ServerAdmissions servers = proxy.admission().orElseThrow();
        Gateways alpha = servers.find("alpha").orElseThrow().gateways();
        Gateways beta = servers.find("beta").orElseThrow().gateways();
        int port = proxy.server().port();
        try (Connection console = ConsoleClient.connect(port, USER, PASSWORD);
                Connection first = ConsoleClient.session(port, StarSchema.DATABASE, USER, PASSWORD);
                Connection second = ConsoleClient.session(port, StarSchema.DATABASE, USER, PASSWORD);
                Connection other = ConsoleClient.session(port, REPORTS, USER, PASSWORD);
                Statement holder = first.createStatement(); Statement waiter = second.createStatement();
                Statement elsewhere = other.createStatement()) {
            for (Statement statement : List.of(holder, waiter, elsewhere)) {
                statement.execute(WIDE);
            }
            // A multi-statement query keeps its permit until ReadyForQuery: here, for the sleep.
            CompletableFuture<Void> holding = CompletableFuture.runAsync(() -> execute(holder,
                    star(12, "holder") + "; select pg_sleep(30)"), threads);
            Await.until("the holder admitted to alpha's SMALL", () -> alpha.state(Tier.SMALL).active() == 1);
            CompletableFuture<Void> waiting = CompletableFuture.runAsync(() -> execute(waiter, star(12, "waiter")),
                    threads);
            Await.until("the waiter queued on alpha", () -> alpha.waiting().size() == 1);

            // The same statement on the other server takes that server's SMALL permit at once.
            CompletableFuture.runAsync(() -> execute(elsewhere, star(12, "elsewhere")), threads)
                    .get(30, TimeUnit.SECONDS);
            assertThat(beta.state(Tier.SMALL).admittedTotal()).isEqualTo(1);
            assertThat(waiting).as("still queued on the first server's gateway").isNotDone();

            assertThat(rows(console, "SHOW QUEUE")).singleElement().satisfies(queued -> assertThat(queued)
                    .containsEntry("server", "alpha").containsEntry("queue", "small")
                    .containsEntry("database", StarSchema.DATABASE));
            List<Map<String, String>> tiers = rows(console, "SHOW TIERS");
            assertThat(tiers).extracting(r -> r.get("server") + "/" + r.get("tier")).containsExactly(
                    "alpha/small", "alpha/medium", "alpha/large", "beta/small", "beta/medium", "beta/large");
            assertThat(tiers.getFirst()).containsEntry("active", "1").containsEntry("waiting", "1");
            assertThat(tiers.get(3)).containsEntry("active", "0").containsEntry("waiting", "0")
                    .containsEntry("admitted", "1");

            URI metrics = proxy.metrics().metricsUrl().orElseThrow();
            PrometheusText scrape = PrometheusText.scrape(metrics);
            assertThat(sample(scrape, "memogate_gateway_waiting", "alpha", "small")).isEqualTo(1.0);
            assertThat(sample(scrape, "memogate_gateway_waiting", "beta", "small")).isEqualTo(0.0);
            assertThat(sample(scrape, "memogate_gateway_admitted_total", "beta", "small")).isEqualTo(1.0);

            // The server ignores a cancel that comes before the statement: cancel once it sleeps.
            ServerActivity.awaitRunningLike(main, StarSchema.DATABASE, "%pg_sleep(30)");
            holder.cancel();
            waiting.get(30, TimeUnit.SECONDS);
            // The holder's permit went back at its cancelled statement's end, which its own thread may read later.
            assertThat(holding).failsWithin(Duration.ofSeconds(30));
        }
    }

    @Test
    void eachServersBrokerSetsItsOwnTarget(EmbeddedPostgres main) throws Exception {
        proxy = RunningProxy.start(config(main));
        try (Connection console = ConsoleClient.connect(proxy.server().port(), USER, PASSWORD)) {
            Await.until("every server's broker live", () -> brokerRows(console).stream()
                    .filter(r -> r.get("name").equals("mode")).allMatch(r -> r.get("value").equals("live")));
            List<Map<String, String>> broker = brokerRows(console);
            long alpha = Long.parseLong(value(broker, "alpha", "target_bytes"));
            long beta = Long.parseLong(value(broker, "beta", "target_bytes"));
            assertThat(Long.parseLong(value(broker, "beta", "shared_buffers_bytes")))
                    .isEqualTo(512L << 20);
            // 384 MiB more shared_buffers on the second server leave less of the 4 GiB host to compiles there.
            assertThat(beta).isLessThan(alpha);
            ServerAdmissions servers = proxy.admission().orElseThrow();
            assertThat(servers.find("alpha").orElseThrow().gateways().target()).isEqualTo(alpha);
            assertThat(servers.find("beta").orElseThrow().gateways().target()).isEqualTo(beta);
            assertThat(row(rows(console, "SHOW STATS"), "name", "client_connections")).containsEntry("server", null);
        }
    }

    @Test
    void aBackendAReloadAddsGetsItsOwnGatewaysAndPauseHoldsEveryServer(EmbeddedPostgres main, @TempDir Path dir)
            throws Exception {
        Path file = dir.resolve("memogate.yaml");
        Files.writeString(file, yaml(main, ""));
        proxy = RunningProxy.start(new ConfigLoader().load(file), Optional.of(file));
        ServerAdmissions servers = proxy.admission().orElseThrow();
        assertThat(servers.all()).extracting(AdmissionControl::server).containsExactly("alpha", "beta");

        // A third backend, on the second server under another database: the reload gives it its own gateways.
        Files.writeString(file, yaml(main, """
                  - {name: gamma, host: %s, port: %d, databases: [postgres], tls: {mode: disable}}
                """.formatted(reports.host(), reports.port())));
        proxy.reloader().reload("test").get(30, TimeUnit.SECONDS);

        assertThat(servers.all()).extracting(AdmissionControl::server).containsExactly("alpha", "beta", "gamma");
        try (Connection console = ConsoleClient.connect(proxy.server().port(), USER, PASSWORD)) {
            assertThat(rows(console, "SHOW TIERS")).extracting(r -> r.get("server")).containsSubsequence(
                    "alpha", "beta", "gamma");
            assertThat(ConsoleClient.run(console, "PAUSE")).singleElement().asString().startsWith("paused");
            assertThat(servers.all()).allSatisfy(server -> assertThat(server.gateways().paused())
                    .as(server.server()).isTrue());
            assertThat(rows(console, "SHOW STATS")).filteredOn(r -> "paused".equals(r.get("name")))
                    .extracting(r -> r.get("server") + "=" + r.get("value"))
                    .containsExactly("alpha=true", "beta=true", "gamma=true");
            ConsoleClient.run(console, "RESUME");
            assertThat(servers.all()).noneSatisfy(server -> assertThat(server.gateways().paused()).isTrue());
        }
    }

    /** The configuration of {@link #config} as a file, with {@code moreBackends} after the two. */
    private static String yaml(EmbeddedPostgres main, String moreBackends) {
        return """
                listeners: [{host: 127.0.0.1, port: 0}]
                backends:
                  - {name: alpha, host: %s, port: %d, databases: [%s], default: true, tls: {mode: disable}}
                  - {name: beta, host: %s, port: %d, databases: [%s], tls: {mode: disable}}
                %slimits: {shutdownTimeout: 1s}
                admin: {http: {port: 0}, users: [%s], watchInterval: 0s}
                """.formatted(main.host(), main.port(), StarSchema.DATABASE, reports.host(), reports.port(), REPORTS,
                moreBackends, USER);
    }

    private static List<Map<String, String>> brokerRows(Connection console) {
        try {
            return rows(console, "SHOW BROKER");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String value(List<Map<String, String>> rows, String server, String name) {
        return rows.stream().filter(r -> server.equals(r.get("server")) && name.equals(r.get("name"))).findFirst()
                .map(r -> r.get("value")).orElseThrow(() -> new AssertionError("no " + name + " of " + server));
    }

    /** The sample of {@code name} for one server and tier, whatever order the labels are written in. */
    private static double sample(PrometheusText scrape, String name, String server, String tier) {
        return scrape.text().lines().filter(line -> line.startsWith(name + "{"))
                .filter(line -> line.contains("server=\"" + server + "\"") && line.contains("tier=\"" + tier + "\""))
                .map(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).findFirst()
                .orElseThrow(() -> new AssertionError("no " + name + " for " + server + "/" + tier + " in\n" + scrape.text()));
    }

    private static void execute(Statement statement, String sql) {
        try {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
