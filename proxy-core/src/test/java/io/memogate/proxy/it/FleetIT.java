package io.memogate.proxy.it;

import static io.memogate.proxy.it.StarSchema.WIDE;
import static io.memogate.proxy.it.StarSchema.star;
import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.Gateways;
import io.memogate.broker.gateway.Tier;
import io.memogate.broker.gateway.TierSettings;
import io.memogate.broker.redis.FleetSettings;
import io.memogate.broker.redis.RedisGateways;
import io.memogate.broker.redis.RedisServer;
import io.memogate.proxy.cli.RunningProxy;
import io.memogate.proxy.config.AdminConfig;
import io.memogate.proxy.config.AdminHttpConfig;
import io.memogate.proxy.config.AdmissionConfig;
import io.memogate.proxy.config.BackendConfig;
import io.memogate.proxy.config.BackendTlsConfig;
import io.memogate.proxy.config.BrokerConfig;
import io.memogate.proxy.config.LimitsConfig;
import io.memogate.proxy.config.ListenerConfig;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.config.MonitorConfig;
import io.memogate.proxy.config.TlsMode;
import io.memogate.proxy.metrics.PrometheusText;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import io.memogate.proxy.postgres.embedded.TestUsers;
import io.memogate.proxy.testing.Await;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two proxies of one fleet in front of one PostgreSQL: a statement sent through one waits for the permit a
 * statement holds through the other, as it would behind a single proxy, and goes on when that one ends; with
 * Redis away, the proxy admits by its own share of the limits, and the session goes on.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class FleetIT {

    private static final String USER = TestUsers.SCRAM_USER;
    private static final String PASSWORD = TestUsers.SCRAM_PASSWORD;

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private final ExecutorService threads = Executors.newCachedThreadPool();
    private RunningProxy first;
    private RunningProxy second;

    @AfterEach
    void stop() {
        threads.shutdownNow();
        for (RunningProxy proxy : new RunningProxy[] {first, second}) {
            if (proxy != null) {
                proxy.close();
            }
        }
    }

    /** One permit per tier, shared by the fleet; no broker, so the target stays static. */
    private static MemogateConfig config(EmbeddedPostgres server, String fleet) {
        TierSettings one = new TierSettings(1, 0.25, 10, Duration.ofMinutes(2));
        GatewaySettings gateways = GatewaySettings.defaults(1).with(Tier.SMALL, one)
                .with(Tier.MEDIUM, one.withFraction(0.5)).with(Tier.LARGE, one.withFraction(1.0));
        return new MemogateConfig(List.of(ListenerConfig.of("127.0.0.1", 0)),
                List.of(new BackendConfig("main", server.host(), server.port(), List.of(StarSchema.DATABASE), true,
                        BackendTlsConfig.of(TlsMode.DISABLE))),
                LimitsConfig.DEFAULTS.withShutdownTimeout(Duration.ofSeconds(1)),
                new AdminConfig(AdminHttpConfig.of("127.0.0.1", 0)).withUsers(USER),
                AdmissionConfig.defaults(1).withGatewaySettings(gateways), BrokerConfig.DEFAULTS)
                .withFleet(Optional.of(new FleetSettings(redis.uri(), fleet)));
    }

    @Test
    void aStatementThroughOneProxyWaitsForThePermitHeldThroughTheOther(EmbeddedPostgres server) throws Exception {
        StarSchema.ensure(server);
        first = RunningProxy.start(config(server, "shared"));
        second = RunningProxy.start(config(server, "shared"));
        Gateways viaFirst = gateways(first);
        Gateways viaSecond = gateways(second);
        try (Connection one = ConsoleClient.session(first.server().port(), StarSchema.DATABASE, USER, PASSWORD);
                Connection two = ConsoleClient.session(second.server().port(), StarSchema.DATABASE, USER, PASSWORD);
                Statement holder = one.createStatement(); Statement waiter = two.createStatement()) {
            holder.execute(WIDE);
            waiter.execute(WIDE);
            // A multi-statement query keeps its permit until ReadyForQuery: here, for the sleep.
            CompletableFuture<Void> holding = CompletableFuture.runAsync(() -> execute(holder,
                    star(12, "holder") + "; select pg_sleep(30)"), threads);
            Await.until("the holder admitted through the first proxy", () -> viaSecond.state(Tier.SMALL).active() == 1);
            CompletableFuture<Void> waiting = CompletableFuture.runAsync(() -> execute(waiter, star(12, "waiter")),
                    threads);
            Await.until("the waiter queued through the second proxy", () -> viaFirst.waiting().size() == 1);
            assertThat(waiting).as("queued behind the other proxy's statement").isNotDone();
            assertThat(viaFirst.waiting().getFirst().tag()).as("the first proxy does not know the second's client")
                    .isNull();
            // Admitted in Redis is not yet sent to the server, and the server ignores a cancel that comes before
            // the statement: cancel once it sleeps.
            ServerActivity.awaitRunningLike(server, StarSchema.DATABASE, "%pg_sleep(30)");

            holder.cancel();
            waiting.get(30, TimeUnit.SECONDS);
            assertThat(holding).failsWithin(Duration.ofSeconds(30));
            Await.until("every permit back in the fleet", () -> viaFirst.state(Tier.SMALL).active() == 0);
            assertThat(viaSecond.state(Tier.SMALL).admittedTotal()).isEqualTo(2);
        }
    }

    @Test
    void theConsolesShowWhichBrokerPollsAndWhichProxyHoldsWhat(EmbeddedPostgres server) throws Exception {
        StarSchema.ensure(server);
        BrokerConfig monitored = BrokerConfig.DEFAULTS.withMonitor(MonitorConfig.of(USER).withPassword(PASSWORD))
                .withHostMemory(4L << 30);
        first = RunningProxy.start(config(server, "console").withBroker(monitored));
        Await.until("the first proxy's broker leads", () -> role(first).equals("leader"));
        second = RunningProxy.start(config(server, "console").withBroker(monitored));
        try (Connection console1 = ConsoleClient.connect(first.server().port(), USER, PASSWORD);
                Connection console2 = ConsoleClient.connect(second.server().port(), USER, PASSWORD);
                Connection one = ConsoleClient.session(first.server().port(), StarSchema.DATABASE, USER, PASSWORD);
                Connection two = ConsoleClient.session(second.server().port(), StarSchema.DATABASE, USER, PASSWORD);
                Statement holder = one.createStatement(); Statement waiter = two.createStatement()) {
            Await.until("the second proxy's broker follows", () -> role(second).equals("follower"));
            Map<String, String> leading = ConsoleClient.values(console1, "SHOW BROKER");
            Map<String, String> following = ConsoleClient.values(console2, "SHOW BROKER");
            assertThat(leading).containsEntry("fleet", "console").containsEntry("fleet_gateways", "shared")
                    .containsEntry("broker_role", "leader").containsEntry("mode", "live");
            assertThat(following).containsEntry("broker_role", "follower")
                    .containsEntry("broker_epoch", leading.get("broker_epoch"))
                    .containsEntry("broker_leader", leading.get("fleet_instance"))
                    .containsEntry("target_bytes", leading.get("target_bytes"));
            double epoch = Double.parseDouble(leading.get("broker_epoch"));
            PrometheusText leaderMeters = PrometheusText.scrape(first.metrics().metricsUrl().orElseThrow());
            PrometheusText followerMeters = PrometheusText.scrape(second.metrics().metricsUrl().orElseThrow());
            assertThat(leaderMeters.value("memogate_fleet_broker_role{role=\"leader\",server=\"main\"}")).contains(1.0);
            assertThat(leaderMeters.value("memogate_fleet_broker_epoch{server=\"main\"}")).contains(epoch);
            assertThat(followerMeters.value("memogate_fleet_broker_role{role=\"follower\",server=\"main\"}"))
                    .contains(1.0);
            assertThat(followerMeters.value("memogate_fleet_broker_role{role=\"leader\",server=\"main\"}"))
                    .contains(0.0);
            assertThat(followerMeters.value("memogate_fleet_broker_epoch{server=\"main\"}")).contains(epoch);
            String firstName = leading.get("fleet_instance");
            String secondName = following.get("fleet_instance");

            holder.execute(WIDE);
            waiter.execute(WIDE);
            CompletableFuture<Void> holding = CompletableFuture.runAsync(() -> execute(holder,
                    star(12, "holder") + "; select pg_sleep(30)"), threads);
            Await.until("the holder admitted through the first proxy", () -> gateways(second).state(Tier.SMALL).active() == 1);
            CompletableFuture<Void> waiting = CompletableFuture.runAsync(() -> execute(waiter, star(12, "waiter")),
                    threads);
            Await.until("the waiter queued through the second proxy", () -> gateways(first).waiting().size() == 1);

            Map<String, String> small = ConsoleClient.row(ConsoleClient.rows(console2, "SHOW TIERS"), "tier", "small");
            assertThat(small).containsEntry("active", "1").containsEntry("waiting", "1")
                    .containsEntry("gateways", "shared").containsEntry("held_by", firstName + ": 1");
            Map<String, String> seenByFirst = ConsoleClient.rows(console1, "SHOW QUEUE").getFirst();
            assertThat(seenByFirst).containsEntry("instance", secondName).containsEntry("client", null);
            Map<String, String> seenBySecond = ConsoleClient.rows(console2, "SHOW QUEUE").getFirst();
            assertThat(seenBySecond).containsEntry("instance", secondName + " (this)").containsEntry("user", USER);
            // A cancel that came before the statement would be lost.
            ServerActivity.awaitRunningLike(server, StarSchema.DATABASE, "%pg_sleep(30)");

            holder.cancel();
            waiting.get(30, TimeUnit.SECONDS);
            assertThat(holding).failsWithin(Duration.ofSeconds(30));
        }
    }

    @Test
    void withRedisAwayTheProxyAdmitsByItsOwnShareAndTheSessionGoesOn(EmbeddedPostgres server) throws Exception {
        StarSchema.ensure(server);
        first = RunningProxy.start(config(server, "away"));
        RedisGateways gateways = (RedisGateways) gateways(first);
        try (Connection one = ConsoleClient.session(first.server().port(), StarSchema.DATABASE, USER, PASSWORD);
                Statement statement = one.createStatement()) {
            statement.execute(WIDE);
            redis.stop();
            try {
                // Until the proxy sees Redis gone, a statement is refused as undecided (53000); then admitted.
                Await.until("a gated statement admitted by the proxy's own share", () -> {
                    try {
                        statement.execute(star(12, "away"));
                        return true;
                    } catch (SQLException e) {
                        assertThat(e.getSQLState()).isEqualTo("53000");
                        assertThat(e.getMessage()).contains("the gateways could not decide it");
                        return false;
                    }
                });
                assertThat(gateways.local()).isTrue();
                assertThat(gateways.state(Tier.SMALL).admittedTotal()).isEqualTo(1);
                assertThat(PrometheusText.scrape(first.metrics().metricsUrl().orElseThrow())
                        .value("memogate_fleet_mode{mode=\"local\",server=\"main\"}")).contains(1.0);
            } finally {
                redis.restart();
            }
            Await.until("the fleet's gateways in force again", () -> !gateways.local());
            assertThat(PrometheusText.scrape(first.metrics().metricsUrl().orElseThrow())
                    .value("memogate_fleet_mode{mode=\"fleet\",server=\"main\"}")).contains(1.0);
            statement.execute(star(12, "back"));
            assertThat(gateways.state(Tier.SMALL).admittedTotal()).as("counted by the restarted Redis").isEqualTo(1);
        }
    }

    private static String role(RunningProxy proxy) {
        return proxy.admission().orElseThrow().find("main").orElseThrow().broker().orElseThrow().state().role().kind()
                .name().toLowerCase(Locale.ROOT);
    }

    private static Gateways gateways(RunningProxy proxy) {
        return proxy.admission().orElseThrow().find("main").orElseThrow().gateways();
    }

    private static void execute(Statement statement, String sql) {
        try {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
