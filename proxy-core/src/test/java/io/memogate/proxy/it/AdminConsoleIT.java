package io.memogate.proxy.it;

import static io.memogate.proxy.it.ConsoleClient.failure;
import static io.memogate.proxy.it.ConsoleClient.row;
import static io.memogate.proxy.it.ConsoleClient.rows;
import static io.memogate.proxy.it.ConsoleClient.values;
import static io.memogate.proxy.it.StarSchema.WIDE;
import static io.memogate.proxy.it.StarSchema.star;
import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.Gateways;
import io.memogate.broker.gateway.Tier;
import io.memogate.broker.gateway.TierSettings;
import io.memogate.estimator.CompileEstimate;
import io.memogate.estimator.CompileEstimator;
import io.memogate.proxy.admin.EstimateJson;
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
import io.memogate.proxy.it.RawPgClient.Message;
import io.memogate.proxy.postgres.embedded.DemoSchema;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import io.memogate.proxy.postgres.embedded.TestUsers;
import io.memogate.proxy.testing.Await;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.postgresql.util.PSQLException;

/**
 * The admin console through pgjdbc against the real proxy (gateways, server, console) in front of
 * PostgreSQL 18: every command answers as an ordinary result set, changes act on the gateways while
 * statements wait, the login is the server's to accept and the console's to refuse to non-admins, and
 * mistakes are errors that leave the console usable.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class AdminConsoleIT {

    private static final String ADMIN = TestUsers.SCRAM_USER;
    private static final String PASSWORD = TestUsers.SCRAM_PASSWORD;

    /** Not the common pool: on two cores it has one thread, which a blocking client would take. */
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private RunningProxy proxy;

    @BeforeEach
    void schema(EmbeddedPostgres pg) throws SQLException {
        StarSchema.ensure(pg);
    }

    @AfterEach
    void stop() {
        threads.shutdownNow();
        if (proxy != null) {
            proxy.close();
        }
    }

    /** One permit per tier, long timeouts: a 12-table star (about 26 MB) takes SMALL only. */
    static MemogateConfig config(EmbeddedPostgres pg) {
        TierSettings one = new TierSettings(1, 0.25, 10, Duration.ofMinutes(2));
        GatewaySettings gateways = GatewaySettings.defaults(1).with(Tier.SMALL, one)
                .with(Tier.MEDIUM, one.withFraction(0.5)).with(Tier.LARGE, one.withFraction(1.0));
        return new MemogateConfig(List.of(ListenerConfig.of("127.0.0.1", 0)),
                List.of(new BackendConfig("main", pg.host(), pg.port(), List.of(), true, BackendTlsConfig.of(TlsMode.DISABLE))),
                LimitsConfig.DEFAULTS.withShutdownTimeout(Duration.ofSeconds(1)),
                new AdminConfig(AdminHttpConfig.of("127.0.0.1", 0)).withUsers(ADMIN),
                AdmissionConfig.defaults(1).withGatewaySettings(gateways), BrokerConfig.DEFAULTS);
    }

    private Connection console() throws Exception {
        return ConsoleClient.connect(proxy.server().port(), ADMIN, PASSWORD);
    }

    private Connection client(String database) throws SQLException {
        return ConsoleClient.session(proxy.server().port(), database, ADMIN, PASSWORD);
    }

    @Test
    void everyShowCommandAnswersAResultSet(EmbeddedPostgres pg) throws Exception {
        proxy = RunningProxy.start(config(pg));
        try (Connection session = client("demo"); Statement statement = session.createStatement();
                Connection console = console()) {
            int serverPid;
            try (ResultSet pid = statement.executeQuery("select pg_backend_pid()")) {
                pid.next();
                serverPid = pid.getInt(1);
            }

            assertThat(ConsoleClient.columns(console, "SHOW TIERS")).containsExactly("server", "tier", "limit", "active", "waiting",
                    "threshold_bytes", "threshold", "fraction", "max_queue", "timeout", "admitted", "timeouts", "queue_full");
            List<Map<String, String>> tiers = rows(console, "SHOW TIERS");
            assertThat(tiers).extracting(r -> r.get("tier")).containsExactly("small", "medium", "large");
            assertThat(tiers).extracting(r -> r.get("server")).containsOnly("main");
            assertThat(row(tiers, "tier", "small")).containsEntry("limit", "1").containsEntry("fraction", "0.25")
                    .containsEntry("timeout", "2min").containsEntry("threshold_bytes", "1048576");
            assertThat(row(tiers, "tier", "large").get("fraction")).as("LARGE has no fraction").isNull();

            assertThat(rows(console, "SHOW QUEUE")).isEmpty();

            List<Map<String, String>> clients = rows(console, "SHOW CLIENTS");
            assertThat(row(clients, "database", "demo")).containsEntry("user", ADMIN).containsEntry("state", "idle")
                    .containsEntry("backend", "main").containsEntry("server_pid", String.valueOf(serverPid));
            assertThat(row(clients, "database", "memogate")).containsEntry("state", "console")
                    .containsEntry("server_pid", null);

            List<Map<String, String>> servers = rows(console, "SHOW SERVERS");
            assertThat(servers).singleElement().satisfies(server -> assertThat(server)
                    .containsEntry("server_pid", String.valueOf(serverPid)).containsEntry("backend", "main")
                    .containsEntry("server_addr", pg.host() + ":" + pg.port()).containsEntry("database", "demo")
                    .containsEntry("recycled", "0")
                    // A SCRAM login and no recycle.authFile: the proxy could not log this session in again.
                    .containsEntry("relogin",
                            "none: the server asked for SCRAM-SHA-256 and no recycle.authFile is configured to answer it"));

            List<Map<String, String>> backends = rows(console, "SHOW BACKENDS");
            assertThat(backends).singleElement().satisfies(backend -> assertThat(backend)
                    .containsEntry("backend", "main").containsEntry("host", pg.host())
                    .containsEntry("port", String.valueOf(pg.port())).containsEntry("tls", "disable")
                    .containsEntry("databases", null).containsEntry("default", "true")
                    .containsEntry("sessions", "1").containsEntry("server_connections", "1"));
            assertThat(rows(console, "SHOW DATABASES")).isEqualTo(backends);

            Map<String, String> stats = values(console, "SHOW STATS");
            assertThat(stats).containsEntry("client_connections", "1").containsEntry("console_sessions", "1")
                    .containsEntry("server_connections", "1").containsEntry("server_recycles", "0")
                    .containsEntry("paused", "false")
                    .containsEntry("admission", "enabled").containsEntry("config_reloads", "0")
                    .containsKey("budget_server_processes"); // processes, not connections: it counts direct ones too

            Map<String, String> broker = values(console, "SHOW BROKER");
            assertThat(broker).containsEntry("mode", "off").containsEntry("target_bytes", String.valueOf(256L << 20));

            List<Map<String, String>> config = rows(console, "SHOW CONFIG");
            assertThat(row(config, "key", "admission.tiers.small.limit")).containsEntry("value", "1")
                    .containsEntry("applies", "live");
            assertThat(row(config, "key", "admin.users")).containsEntry("value", ADMIN);
            assertThat(row(config, "key", "listeners[0].port")).containsEntry("applies", "restart");
            assertThat(row(config, "key", "backends[0].host")).containsEntry("applies", "new sessions");

            assertThat(rows(console, "SHOW HELP")).extracting(r -> r.get("command")).contains("SHOW TIERS", "RELOAD",
                    "SHOW VERSION", "EXPLAIN ADMISSION [DATABASE <name>] <statement>");
            // From compiled classes there is no jar manifest: "development"; from the jar, its version.
            assertThat(rows(console, "show version;")).singleElement().satisfies(r -> assertThat(r.get("version"))
                    .isIn("memogate development", "memogate " + System.getProperty("memogate.version")));
            // PgBouncer's habits: any letter case, an optional trailing semicolon.
            assertThat(rows(console, "  show   Tiers ;")).hasSize(3);
        }
    }

    @Test
    void showBrokerFollowsThePollingBrokerAndShowConfigHidesItsPassword(EmbeddedPostgres pg) throws Exception {
        MemogateConfig config = config(pg);
        proxy = RunningProxy.start(config.withBroker(BrokerConfig.DEFAULTS.withHostMemory(16L << 30)
                .withMonitor(MonitorConfig.of(DemoSchema.MONITOR).withPassword(DemoSchema.MONITOR_PASSWORD))));
        try (Connection console = console()) {
            Await.until("SHOW BROKER says mode live", () -> "live".equals(values(console, "SHOW BROKER").get("mode")));
            Map<String, String> broker = values(console, "SHOW BROKER");
            assertThat(broker.get("server_version_num")).startsWith("18");
            assertThat(Long.parseLong(broker.get("target_bytes"))).isEqualTo(gateways().target());
            assertThat(Double.parseDouble(broker.get("snapshot_age_s"))).isLessThan(30);
            assertThat(broker).containsEntry("consecutive_failures", "0");
            assertThat(row(rows(console, "SHOW CONFIG"), "key", "broker.monitor.password"))
                    .containsEntry("value", "********");
        }
    }

    @Test
    void explainAdmissionIsTheEstimatorsDryRunAndRunsNothing(EmbeddedPostgres pg) throws Exception {
        pg.execute("demo", "create table if not exists never_inserted (id int)", "truncate never_inserted");
        proxy = RunningProxy.start(config(pg));
        String star = star(14, "explained");
        try (Connection console = console()) {
            List<Map<String, String>> explained = rows(console, "explain admission " + star + "; select 1");

            List<CompileEstimate> expected = new CompileEstimator().estimateAll(star + "; select 1",
                    proxy.admission().orElseThrow().all().getFirst().serverDefaults());
            assertThat(explained).hasSize(2);
            assertThat(explained.get(0)).containsEntry("statement", "1")
                    .containsEntry("json", EstimateJson.of(expected.get(0)))
                    .containsEntry("estimated_bytes", String.valueOf(expected.get(0).estimatedBytes()))
                    .containsEntry("bypass", "false").containsEntry("parser", "calcite")
                    .containsEntry("relations", "14");
            assertThat(explained.get(0).get("gateways")).startsWith("small");
            assertThat(explained.get(1)).containsEntry("bypass", "true");
            assertThat(explained.get(1).get("gateways")).startsWith("none");

            rows(console, "EXPLAIN ADMISSION insert into never_inserted values (1)");
        }
        try (Connection direct = pg.connect("demo"); Statement statement = direct.createStatement();
                ResultSet count = statement.executeQuery("select count(*) from never_inserted")) {
            count.next();
            assertThat(count.getInt(1)).as("EXPLAIN ADMISSION runs nothing").isZero();
        }
    }

    @Test
    void setRaisesALimitWhileStatementsWaitAndTheWaiterGoesOnAtOnce(EmbeddedPostgres pg) throws Exception {
        proxy = RunningProxy.start(config(pg));
        try (Connection console = console(); Connection first = client(StarSchema.DATABASE);
                Connection second = client(StarSchema.DATABASE);
                Statement holder = first.createStatement(); Statement waiter = second.createStatement()) {
            holder.execute(WIDE);
            waiter.execute(WIDE);
            // A multi-statement query keeps its permit until ReadyForQuery: here, for the sleep.
            CompletableFuture<Void> holding = CompletableFuture.runAsync(() -> execute(holder,
                    star(12, "holder") + "; select pg_sleep(30)"), threads);
            awaitOneAdmittedToSmall();
            CompletableFuture<Void> waiting = CompletableFuture.runAsync(() -> execute(waiter, star(12, "waiter")), threads);
            awaitOneQueued();
            Map<String, String> queued = rows(console, "SHOW QUEUE").getFirst();
            assertThat(queued).containsEntry("queue", "small").containsEntry("position", "1")
                    .containsEntry("user", ADMIN).containsEntry("database", StarSchema.DATABASE);
            assertThat(queued.get("fingerprint")).contains("from t0 join t1 on t0.k1 = t1.a");
            assertThat(row(rows(console, "SHOW CLIENTS"), "state", "waiting for admission").get("waiting"))
                    .contains("queued for the SMALL gateway");

            List<String> notices = ConsoleClient.run(console, "set tiers.small.limit = 2");

            waiting.get(30, TimeUnit.SECONDS);
            assertThat(holding).as("the waiter went on while the first statement still holds its permit").isNotDone();
            assertThat(notices).singleElement().asString().contains("admission.tiers.small.limit = 2 (was 1)")
                    .contains("not written to the configuration file");
            assertThat(row(rows(console, "SHOW TIERS"), "tier", "small")).containsEntry("limit", "2")
                    .containsEntry("active", "1");
            assertThat(row(rows(console, "SHOW CONFIG"), "key", "admission.tiers.small.limit"))
                    .containsEntry("value", "2");
            // SET ... TO, and quoted values, as in PostgreSQL.
            ConsoleClient.run(console, "SET admission.tiers.medium.timeout TO '90s'");
            assertThat(row(rows(console, "SHOW TIERS"), "tier", "medium")).containsEntry("timeout", "90s");
            holder.cancel();
        }
    }

    @Test
    void pauseHoldsNewStatementsWhileAdmittedOnesFinishAndResumeLetsThemGo(EmbeddedPostgres pg) throws Exception {
        proxy = RunningProxy.start(config(pg));
        try (Connection console = console(); Connection first = client(StarSchema.DATABASE);
                Connection second = client(StarSchema.DATABASE); Connection third = client("demo");
                Statement admitted = first.createStatement(); Statement held = second.createStatement();
                Statement small = third.createStatement()) {
            admitted.execute(WIDE);
            held.execute(WIDE);
            CompletableFuture<Void> running = CompletableFuture.runAsync(() -> execute(admitted,
                    star(12, "admitted before the pause") + "; select pg_sleep(1)"), threads);
            awaitOneAdmittedToSmall();

            assertThat(ConsoleClient.run(console, "PAUSE")).singleElement().asString().startsWith("paused");

            CompletableFuture<Void> waiting = CompletableFuture.runAsync(() -> execute(held, star(12, "held")), threads);
            running.get(30, TimeUnit.SECONDS);
            // Unpaused, the permit the first statement gives back would go to the one queued at once.
            Await.until("SMALL's permit free while a statement stays queued",
                    () -> gateways().state(Tier.SMALL).active() == 0 && gateways().waiting().size() == 1);
            assertThat(waiting).as("a free permit, but paused").isNotDone();
            assertThat(rows(console, "SHOW QUEUE")).singleElement().satisfies(q -> assertThat(q.get("fingerprint"))
                    .contains("from t0 join t1 on t0.k1 = t1.a"));
            assertThat(values(console, "SHOW STATS")).containsEntry("paused", "true");
            try (ResultSet rows = small.executeQuery("select count(*) from sales")) {
                rows.next(); // one relation: no gateway, so no pause
                assertThat(rows.getLong(1)).isPositive();
            }

            assertThat(ConsoleClient.run(console, "resume;")).singleElement().asString()
                    .startsWith("resumed: 1 waiting statements");
            waiting.get(30, TimeUnit.SECONDS);
            assertThat(values(console, "SHOW STATS")).containsEntry("paused", "false");
        }
    }

    @Test
    void mistakesAreErrorsNamingWhatIsValidAndTheConsoleGoesOn(EmbeddedPostgres pg) throws Exception {
        proxy = RunningProxy.start(config(pg));
        try (Connection console = console()) {
            PSQLException unknown = failure(console, "select 1");
            assertThat(unknown.getSQLState()).isEqualTo("42601");
            assertThat(unknown.getServerErrorMessage().getMessage()).isEqualTo("unknown admin console command: \"select 1\"");
            assertThat(unknown.getServerErrorMessage().getDetail()).contains("SHOW TIERS", "SHOW QUEUE", "PAUSE",
                    "RESUME", "RELOAD", "EXPLAIN ADMISSION [DATABASE <name>] <statement>");

            assertThat(failure(console, "SHOW TIERS; SHOW QUEUE").getServerErrorMessage().getMessage())
                    .isEqualTo("the admin console runs one command per query");
            assertThat(failure(console, "SHOW TABLES").getSQLState()).isEqualTo("42601");

            PSQLException badValue = failure(console, "SET tiers.small.limit = 0");
            assertThat(badValue.getSQLState()).isEqualTo("22023");
            assertThat(badValue.getServerErrorMessage().getMessage())
                    .isEqualTo("admission.tiers.small.limit must be at least 1, was 0");
            assertThat(failure(console, "SET tiers.medium.timeout = '2 weeks'").getServerErrorMessage().getMessage())
                    .startsWith("admission.tiers.medium.timeout: '2 weeks' is not a duration");

            PSQLException unknownSetting = failure(console, "SET tiers.large.fraction = 0.5");
            assertThat(unknownSetting.getSQLState()).isEqualTo("42704");
            assertThat(unknownSetting.getServerErrorMessage().getDetail()).contains("tiers.small.fraction")
                    .doesNotContain("tiers.large.fraction");
            assertThat(failure(console, "SET listeners.port = 7000").getSQLState()).isEqualTo("42704");

            PSQLException noFile = failure(console, "RELOAD");
            assertThat(noFile.getSQLState()).as("started from a configuration built in code").isEqualTo("55000");
            assertThat(noFile.getServerErrorMessage().getMessage())
                    .isEqualTo("RELOAD needs a configuration file, and this proxy was started without one");

            assertThat(rows(console, "SHOW TIERS")).as("still usable").hasSize(3);
            assertThat(row(rows(console, "SHOW TIERS"), "tier", "small")).containsEntry("limit", "1");
        }
    }

    @Test
    void onlyAdminsGetTheConsoleAndTheServerDecidesWhoTheyAre(EmbeddedPostgres pg) throws Exception {
        proxy = RunningProxy.start(config(pg));
        int port = proxy.server().port();

        SQLException notAdmin = catchSql(() -> ConsoleClient.connect(port, TestUsers.MD5_USER, TestUsers.MD5_PASSWORD));
        assertThat(notAdmin.getSQLState()).isEqualTo("42501");
        assertThat(notAdmin.getMessage()).contains("role \"memogate_md5\" is not listed in admin.users");

        SQLException wrongPassword = catchSql(() -> ConsoleClient.connect(port, ADMIN, "not the password"));
        assertThat(wrongPassword.getSQLState()).as("the server's verdict, relayed").isEqualTo("28P01");

        try (Connection console = console()) {
            Await.until("no server connection open", () -> proxy.server().serverConnectionCount() == 0);
            assertThat(rows(console, "SHOW SERVERS")).as("the console gave its server connection back").isEmpty();
        }
        assertThat(proxy.server().sessionCount()).isLessThanOrEqualTo(1);
    }

    /** The simple protocol's answer on the wire; the extended protocol's is in ConsoleExtendedProtocolIT. */
    @Test
    void aCommandsAnswerOnTheWire(EmbeddedPostgres pg) throws Exception {
        MemogateConfig config = config(pg);
        proxy = RunningProxy.start(config.withAdmin(config.admin().withUsers(ADMIN, TestUsers.TRUST_USER)));
        try (RawPgClient client = new RawPgClient(proxy.server().port())) {
            assertThat(client.startup(TestUsers.TRUST_USER, "memogate")).last().extracting(Message::type).isEqualTo('Z');
            client.query("SHOW TIERS");
            List<Message> answer = client.readUntilReady();
            assertThat(answer).extracting(Message::type).containsExactly('T', 'D', 'D', 'D', 'C', 'Z');
            ByteBuffer description = ByteBuffer.wrap(answer.get(0).body());
            assertThat(description.getShort()).as("columns").isEqualTo((short) 13);
            while (description.get() != 0) {
                // the first column's name
            }
            description.getInt();
            description.getShort();
            assertThat(description.getInt()).as("type: text").isEqualTo(25);
            assertThat(answer.get(4).text()).isEqualTo("SHOW\0");
            assertThat(answer.get(5).body()).containsExactly('I');

            client.query(";");
            assertThat(client.readUntilReady()).extracting(Message::type).containsExactly('I', 'Z');
            client.query("-- only a comment, as psql -c sends it");
            assertThat(client.readUntilReady()).extracting(Message::type).containsExactly('I', 'Z');
        }
    }

    @Test
    void withoutAdmissionTheConsoleSaysWhatItCannotDo(EmbeddedPostgres pg) throws Exception {
        MemogateConfig config = config(pg);
        proxy = RunningProxy.start(config.withAdmission(config.admission().withEnabled(false)));
        try (Connection console = console()) {
            PSQLException noGateways = failure(console, "SHOW TIERS");
            assertThat(noGateways.getSQLState()).isEqualTo("55000");
            assertThat(noGateways.getServerErrorMessage().getHint()).contains("admission.enabled: true");
            assertThat(failure(console, "PAUSE").getSQLState()).isEqualTo("55000");
            assertThat(failure(console, "SET tiers.small.limit = 2").getSQLState()).isEqualTo("55000");
            assertThat(values(console, "SHOW STATS")).containsEntry("admission", "disabled").doesNotContainKey("paused");
            assertThat(rows(console, "EXPLAIN ADMISSION " + star(12, "no gateways")).getFirst())
                    .containsEntry("gateways", "admission disabled");
            assertThat(row(rows(console, "SHOW CONFIG"), "key", "admission.enabled")).containsEntry("value", "false")
                    .containsEntry("applies", "restart");
        }
    }

    /**
     * CANCEL and KILL, addressed by a session's server_pid: a statement queued for admission is withdrawn
     * (which the server's pg_cancel_backend cannot do: the server sees that session idle), a running one
     * cancelled on the server, and a session ended as pg_terminate_backend ends one.
     */
    @Test
    void cancelWithdrawsAQueuedStatementOrCancelsARunningOneAndKillEndsTheSession(EmbeddedPostgres pg)
            throws Exception {
        proxy = RunningProxy.start(config(pg)); // one SMALL permit
        int port = proxy.server().port();
        try (Connection console = ConsoleClient.connect(port, TestUsers.SCRAM_USER, TestUsers.SCRAM_PASSWORD);
             Connection first = ConsoleClient.session(port, StarSchema.DATABASE, TestUsers.SCRAM_USER,
                     TestUsers.SCRAM_PASSWORD);
             Connection second = ConsoleClient.session(port, StarSchema.DATABASE, TestUsers.SCRAM_USER,
                     TestUsers.SCRAM_PASSWORD);
             Statement holder = first.createStatement(); Statement waiter = second.createStatement()) {
            int holderPid = serverPid(holder);
            int waiterPid = serverPid(waiter);
            holder.execute(WIDE);
            waiter.execute(WIDE);
            // A multi-statement query keeps its permit until ReadyForQuery: here, for the sleep.
            CompletableFuture<SQLException> holding = failing(holder, star(12, "holder") + "; select pg_sleep(30)");
            awaitOneAdmittedToSmall();
            CompletableFuture<SQLException> waiting = failing(waiter, star(12, "waiter"));
            awaitOneQueued();
            assertThat(rows(console, "SHOW QUEUE")).singleElement()
                    .satisfies(queued -> assertThat(queued).containsEntry("server_pid", String.valueOf(waiterPid)));

            assertThat(ConsoleClient.run(console, "CANCEL " + waiterPid)).singleElement().asString()
                    .startsWith("withdrew the statement of " + TestUsers.SCRAM_USER + "@" + StarSchema.DATABASE)
                    .contains("from its queue (statement queued for the SMALL gateway");
            assertThat((Throwable) waiting.get(10, TimeUnit.SECONDS)).isInstanceOfSatisfying(PSQLException.class,
                    e -> assertThat(e.getSQLState()).isEqualTo("57014"));
            assertThat(holding).as("the statement holding the permit runs on").isNotDone();
            assertThat(ConsoleClient.run(console, "cancel " + waiterPid + ";")).singleElement().asString()
                    .startsWith("nothing to cancel");

            // As PostgreSQL's own cancel, one that reaches the server before it reads the query is ignored.
            ServerActivity.awaitWaitEvent(pg, holderPid, "Timeout:PgSleep");
            assertThat(failure(console, "CANCEL " + holderPid + " ON elsewhere").getSQLState())
                    .as("not on that backend").isEqualTo("42704");
            assertThat(ConsoleClient.run(console, "CANCEL " + holderPid + " ON main")).singleElement().asString()
                    .startsWith("sent the server a cancel request for the statement of");
            assertThat((Throwable) holding.get(10, TimeUnit.SECONDS)).isInstanceOfSatisfying(PSQLException.class,
                    e -> assertThat(e.getSQLState()).isEqualTo("57014"));

            assertThat(ConsoleClient.run(console, "KILL " + waiterPid)).singleElement().asString()
                    .startsWith("terminated the session of");
            assertThat((Throwable) failing(waiter, "select 1").get(10, TimeUnit.SECONDS))
                    .isInstanceOfSatisfying(PSQLException.class, e -> {
                        // PostgreSQL's words for pg_terminate_backend, and who asked.
                        assertThat(e.getSQLState()).isEqualTo("57P01");
                        assertThat(e.getServerErrorMessage().getMessage())
                                .isEqualTo("terminating connection due to administrator command");
                        assertThat(e.getServerErrorMessage().getDetail())
                                .startsWith("KILL from Memogate's admin console by " + TestUsers.SCRAM_USER + "@");
                    });
            Await.until("server process " + waiterPid + " gone", () -> !ServerActivity.exists(pg, waiterPid));
            try (ResultSet row = holder.executeQuery("select 'the other session goes on'")) {
                assertThat(row.next()).isTrue();
            }
            assertThat(failure(console, "KILL " + waiterPid).getSQLState()).isEqualTo("42704");
        }
    }

    private static int serverPid(Statement statement) throws SQLException {
        try (ResultSet row = statement.executeQuery("select pg_backend_pid()")) {
            row.next();
            return row.getInt(1);
        }
    }

    /** Runs {@code sql} on another thread: completes with its failure, or null if it succeeded. */
    private CompletableFuture<SQLException> failing(Statement statement, String sql) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                statement.execute(sql);
                return null;
            } catch (SQLException e) {
                return e;
            }
        }, threads);
    }

    private Gateways gateways() {
        return proxy.admission().orElseThrow().all().getFirst().gateways();
    }

    private void awaitOneAdmittedToSmall() throws InterruptedException {
        Await.until("a statement admitted to SMALL", () -> gateways().state(Tier.SMALL).active() == 1);
    }

    private void awaitOneQueued() throws InterruptedException {
        Await.until("a statement queued", () -> !gateways().waiting().isEmpty());
    }

    private static void execute(Statement statement, String sql) {
        try {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @FunctionalInterface
    private interface SqlAction {
        Object run() throws SQLException;
    }

    private static SQLException catchSql(SqlAction action) {
        try {
            Object connection = action.run();
            throw new AssertionError("connected: " + connection);
        } catch (SQLException e) {
            return e;
        }
    }
}
