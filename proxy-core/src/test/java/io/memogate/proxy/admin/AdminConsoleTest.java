package io.memogate.proxy.admin;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.estimator.postgres.MemoryCoefficients;
import io.memogate.estimator.postgres.PostgresLexicalRules;
import io.memogate.proxy.admission.AdmissionControl;
import io.memogate.proxy.admission.ServerAdmissions;
import io.memogate.proxy.admission.SessionInfo;
import io.memogate.proxy.config.BackendConfig;
import io.memogate.proxy.config.ConfigLoader;
import io.memogate.proxy.config.LimitsConfig;
import io.memogate.proxy.config.ListenerConfig;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.postgres.CurrentEstimator;
import io.memogate.proxy.postgres.PostgresServer;
import io.memogate.proxy.reload.ConfigReloader;
import io.memogate.proxy.reload.CurrentConfig;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The console's commands over real gateways and configuration, without a network: what the operator is
 * answered, and what the proxy's log keeps of it.
 */
class AdminConsoleTest {

    private static final SessionInfo DBA = new SessionInfo("dba", "memogate", "psql",
            new InetSocketAddress("10.0.0.9", 40112));

    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger consoleLog = (Logger) LoggerFactory.getLogger(AdminConsole.class);
    private final MemogateConfig config = new MemogateConfig(List.of(ListenerConfig.of("127.0.0.1", 0)),
            List.of(BackendConfig.of("main", "localhost", 5432).withDatabases("shop").withDefault(false)),
            LimitsConfig.DEFAULTS);
    private final AdmissionControl admission = AdmissionControl.builder(AdmissionControl.ONLY_SERVER, PostgresServer.KIND,
            GatewaySettings.defaults(2)).staticTargetBytes(1L << 30).waitNotice(() -> Duration.ZERO).build();
    private final ConfigReloader reloader = new ConfigReloader(new CurrentConfig(config), Optional.empty(),
            new ConfigLoader(), next -> { }, Optional.of(admission.gateways()), Instant::now);
    /** What the fake connections answer a CANCEL or KILL. */
    private ConnectionsView.SessionCommandOutcome sessionsNamed =
            new ConnectionsView.SessionCommandOutcome(Optional.empty(), List.of());
    private final AdminConsole console = new AdminConsole(reloader,
            Optional.of(new ServerAdmissions(name -> admission, PostgresLexicalRules.analyzer(), List.of("main"))),
            new CurrentEstimator(MemoryCoefficients.DEFAULTS), new ConnectionsView() {
                @Override
                public CompletionStage<List<ClientView>> clients() {
                    return CompletableFuture.completedFuture(List.of());
                }

                @Override
                public CompletionStage<SessionCommandOutcome> cancel(int serverPid, Optional<String> backend,
                                                                    String by) {
                    return CompletableFuture.completedFuture(sessionsNamed);
                }

                @Override
                public CompletionStage<SessionCommandOutcome> terminate(int serverPid, Optional<String> backend,
                                                                       String by) {
                    return CompletableFuture.completedFuture(sessionsNamed);
                }

                @Override
                public int serverConnectionCount() {
                    return 0;
                }

                @Override
                public long serverRecycleCount() {
                    return 0;
                }
            }, Clock.systemUTC());

    @BeforeEach
    void capture() {
        log.start();
        consoleLog.addAppender(log);
    }

    @AfterEach
    void close() {
        consoleLog.detachAppender(log);
        reloader.close();
        admission.close();
    }

    /** What the default configuration (logback.xml: INFO) would print. */
    private List<String> printed() {
        return log.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.INFO))
                .map(ILoggingEvent::getFormattedMessage).toList();
    }

    private ConsoleResult run(String command) throws Exception {
        return console.execute(command, DBA).toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    static ConsoleException failure(CompletionStage<ConsoleResult> result) {
        try {
            result.toCompletableFuture().join();
            throw new AssertionError("no failure: " + result);
        } catch (CompletionException e) {
            return (ConsoleException) e.getCause();
        }
    }

    @Test
    void aSecondPauseOrResumeChangesNothingAndLogsNothing() throws Exception {
        assertThat(run("PAUSE").notices()).singleElement().asString().startsWith("paused: ");
        assertThat(run("PAUSE").notices()).singleElement().asString().startsWith("already paused: ");
        assertThat(run("RESUME").notices()).singleElement().asString().startsWith("resumed: ");
        assertThat(run("RESUME").notices()).containsExactly("not paused: nothing to resume");

        assertThat(printed()).containsExactly(
                "gateways paused by dba@memogate from 10.0.0.9:40112 (psql): 0 statements hold permits and finish; "
                        + "new ones queue",
                "gateways resumed by dba@memogate from 10.0.0.9:40112 (psql): 0 statements were waiting");
    }

    @Test
    void cancelOrKillOfAServerProcessNoSessionHasIsAnErrorPointingAtShowClients() throws Exception {
        for (String command : List.of("CANCEL 4242", "KILL 4242")) {
            ConsoleException missing = failure(console.execute(command, DBA));
            assertThat(missing.kind()).as(command).isEqualTo(ConsoleException.Kind.UNKNOWN_SESSION);
            assertThat(missing).hasMessage("no session of Memogate has server process 4242");
            assertThat(missing.hint()).contains("SHOW CLIENTS");
        }
        assertThat(failure(console.execute("KILL 4242 ON shop", DBA)))
                .hasMessage("no session of Memogate has server process 4242 on backend shop");
    }

    /** Each server numbers its own processes: a pid sessions on two backends have is done to neither. */
    @Test
    void cancelOrKillOfAServerProcessSessionsOnTwoBackendsHaveAsksWhichBackend() throws Exception {
        sessionsNamed = new ConnectionsView.SessionCommandOutcome(Optional.empty(), List.of("main", "reports"));
        ConsoleException ambiguous = failure(console.execute("KILL 87", DBA));
        assertThat(ambiguous.kind()).isEqualTo(ConsoleException.Kind.AMBIGUOUS_SESSION);
        assertThat(ambiguous).hasMessage("sessions on 2 backends have server process 87: main, reports");
        assertThat(ambiguous.detail()).isEqualTo("Nothing was done.");
        assertThat(ambiguous.hint()).isEqualTo("Name the backend: KILL 87 ON main.");
    }

    /** A typo is named, as PostgreSQL names a database it does not have, rather than estimated "from the SQL". */
    @Test
    void explainAdmissionOfADatabaseNoBackendServesIsAnErrorNamingIt() throws Exception {
        ConsoleException missing = failure(console.execute("EXPLAIN ADMISSION DATABASE shpo select * from a, b",
                DBA));

        assertThat(missing.kind()).isEqualTo(ConsoleException.Kind.UNKNOWN_DATABASE);
        assertThat(missing).hasMessage("database \"shpo\" does not exist");
        assertThat(missing.detail()).isEqualTo("Memogate routes no backend for database \"shpo\" and no backend is "
                + "marked default, so sessions cannot use it either.");
        assertThat(missing.hint()).contains("SHOW BACKENDS");
        assertThat(run("EXPLAIN ADMISSION DATABASE shop select * from a, b").table()).hasValueSatisfying(
                table -> assertThat(table.rows()).hasSize(1));
    }
}
