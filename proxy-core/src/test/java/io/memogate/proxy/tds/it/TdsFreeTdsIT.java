package io.memogate.proxy.tds.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.memogate.proxy.config.BackendTlsConfig;
import io.memogate.proxy.config.TlsMode;
import io.memogate.proxy.it.ClientProgram;
import io.memogate.proxy.it.ClientProgram.Result;
import io.memogate.proxy.tds.it.TdsTestServer.Encryption;
import io.memogate.proxy.testing.Await;
import io.memogate.proxy.testing.ScriptedHook;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * FreeTDS's command-line client {@code tsql} (Debian's freetds-bin) through the proxy, as a user types into it:
 * each batch ended by {@code go}, from a freetds.conf written for the run ({@code FREETDSCONF}) naming the TDS
 * version and the encryption. Its login in TDS 7.1 to 7.4, a query's row printed as the server returned it, a
 * refusal by the admission printed as error 8628 with the session going on, a statement held then admitted, the
 * server's own error and a wrong password's 18456 relayed, tsql's own timeout while a statement waits, and its
 * three encryption settings against a listener with a certificate, read off the wire. Behind the proxy: the test
 * TDS server, or the real SQL Server named for the tests (checks of what the server received are then skipped).
 */
class TdsFreeTdsIT {

    private static final Path TSQL = Path.of("/usr/bin/tsql");

    @TempDir
    static Path certificates;
    private static TdsTlsSetup tls;

    @TempDir
    Path dir;
    private final ScriptedHook hook = new ScriptedHook();
    private TdsTarget target;
    private TdsProxy proxy;
    private WireTap tap;

    @BeforeAll
    static void certificates() throws Exception {
        assumeTrue(Files.isExecutable(TSQL), TSQL + " is not installed (Debian: apt-get install freetds-bin; "
                + "bin/memogate test installs it)");
        tls = TdsTlsSetup.in(certificates);
    }

    @AfterEach
    void stop() throws Exception {
        if (tap != null) {
            tap.close();
        }
        if (proxy != null) {
            proxy.close();
        }
        if (target != null) {
            target.close();
        }
    }

    private void startWithoutTls() throws Exception {
        target = TdsTarget.open();
        proxy = TdsProxy.to(target, hook);
    }

    /** tsql in TDS {@code version}, {@code input} typed into it. */
    private Result tsql(String version, String input) throws Exception {
        return tsql(proxy.port(), version, "off", target.password, "", input);
    }

    /**
     * tsql to {@code port} in TDS {@code version} with FreeTDS's {@code encryption} (off, request, require), logging
     * in with {@code password}, {@code settings} added to its freetds.conf entry, {@code input} typed into it.
     */
    private Result tsql(int port, String version, String encryption, String password, String settings, String input)
            throws Exception {
        Path conf = dir.resolve("freetds.conf");
        Files.writeString(conf, String.join("\n",
                "[memogate]",
                "    host = 127.0.0.1",
                "    port = " + port,
                "    tds version = " + version,
                "    encryption = " + encryption,
                "    client charset = UTF-8",
                "    connect timeout = 20",
                settings,
                ""));
        // HOME: no ~/.freetds.conf of the machine's is read
        return ClientProgram.run(dir, Map.of("FREETDSCONF", conf.toString(), "HOME", dir.toString()),
                List.of(TSQL.toString(), "-S", "memogate", "-U", target.user, "-P", password, "-D", target.database),
                input);
    }

    /**
     * The row of {@code SELECT n AS n} as tsql prints it, a line of tab-separated columns: from the test TDS server,
     * n and the batch echoed (tsql sends each line typed with its newline); from a real server, n alone.
     */
    private Pattern row(int n, String sql) {
        String columns = target.testServer.isPresent() ? n + "\t" + sql : Integer.toString(n);
        return Pattern.compile("(?m)^" + Pattern.quote(columns) + "$");
    }

    @ParameterizedTest(name = "tds version = {0}")
    @CsvSource({"7.4, 7.4", "7.3, 7.3", "7.2, 7.2", "7.1, 7.1", "auto, 7.4"})
    void logsInAndPrintsAQuerysRowAsTheServerReturnsIt(String version, String agreed) throws Exception {
        startWithoutTls();
        Result run = tsql(version, "version\nSELECT 42 AS n\ngo\nexit\n");
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).as("the version the server's LOGINACK agreed to")
                .contains("using TDS version " + agreed);
        assertThat(run.output()).containsPattern(row(42, "SELECT 42 AS n")).contains("(1 row affected)");
        TdsTestServer server = target.recording();
        assertThat(server.logins).containsExactly("memo@demo");
        assertThat(server.batches).containsExactly("SELECT 42 AS n\n");
    }

    /** At the smallest packet size, 512 bytes: the proxy's error, longer than one packet, is cut to it. */
    @ParameterizedTest(name = "tds version = {0}")
    @ValueSource(strings = {"7.4", "7.1"})
    void aRefusedStatementIsPrintedAsError8628AndTheNextOneRuns(String version) throws Exception {
        startWithoutTls();
        Result run = tsql(proxy.port(), version, "off", target.password, "    packet size = 512",
                "SELECT 1 AS n " + ScriptedHook.REFUSE + "\ngo\nSELECT 8 AS n\ngo\nexit\n");
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("Msg 8628 (severity 17, state 1)")
                .contains("A time out occurred while waiting to optimize the query. Rerun the query.")
                .contains("LARGE gateway", "waited 2.0 s", "estimated planner memory 512.0 MiB")
                .containsPattern(row(8, "SELECT 8 AS n"));
        if (target.testServer.isPresent()) {
            assertThat(target.testServer.get().batches).containsExactly("SELECT 8 AS n\n");
        }
    }

    @Test
    void aHeldStatementWaitsThenItsRowIsPrinted() throws Exception {
        startWithoutTls();
        CompletableFuture<Result> run = CompletableFuture.supplyAsync(() -> {
            try {
                return tsql("7.4", "SELECT 12 AS n " + ScriptedHook.HOLD + "\ngo\nexit\n");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        proxy.awaitSessionIn("waiting for admission");
        assertThat(run).isNotDone();
        hook.admitHeld();
        Result done = run.get(60, TimeUnit.SECONDS);
        assertThat(done.exitCode()).as(done.output()).isZero();
        assertThat(done.output()).containsPattern(row(12, "SELECT 12 AS n " + ScriptedHook.HOLD));
    }

    @ParameterizedTest(name = "tds version = {0}")
    @ValueSource(strings = {"7.4", "7.1"})
    void theServersOwnErrorIsPrintedAndTheNextStatementRuns(String version) throws Exception {
        startWithoutTls();
        Result run = tsql(version, "THROW 50001, 'no order 17 here', 3\ngo\nSELECT 9 AS n\ngo\nexit\n");
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("Msg 50001 (severity 16, state 3)").contains("\"no order 17 here\"")
                .containsPattern(row(9, "SELECT 9 AS n"));
    }

    @ParameterizedTest(name = "tds version = {0}")
    @ValueSource(strings = {"7.4", "7.1"})
    void aWrongPasswordIsTheServersOwn18456(String version) throws Exception {
        startWithoutTls();
        Result run = tsql(proxy.port(), version, "off", target.password + "-not", "", "SELECT 1\ngo\nexit\n");
        assertThat(run.exitCode()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("Msg 18456 (severity 14, state 1)")
                .contains("Login failed for user '" + target.user + "'.")
                .contains("There was a problem connecting to the server");
        proxy.awaitSessionCount(0);
        assertThat(target.recording().batches).isEmpty();
    }

    /**
     * tsql's answer to its own timeout is to close its connection (FreeTDS's tdserror closes it when the program's
     * handler cancels, as tsql's does): the statement waiting for admission is withdrawn, never reaching the server.
     */
    @Test
    void tsqlsTimeoutWhileAStatementWaitsForAdmissionWithdrawsIt() throws Exception {
        startWithoutTls();
        String held = "SELECT 4 AS n " + ScriptedHook.HOLD + "\n";
        Result run = tsql(proxy.port(), "7.4", "off", target.password, "    timeout = 2", held + "go\nexit\n");
        assertThat(run.output()).contains("Adaptive Server connection timed out");
        proxy.awaitSessionCount(0);
        Await.until("the held statement is withdrawn", () -> hook.withdrawn.contains(held));
        if (target.testServer.isPresent()) {
            assertThat(target.testServer.get().batches).isEmpty();
        }
    }

    /** 512-byte packets, the smallest: a batch of several arrives whole, and its answer comes back. */
    @Test
    void aLongBatchInSmallPacketsArrivesWhole() throws Exception {
        startWithoutTls();
        String sql = "SELECT 5 AS n /* " + "x".repeat(3000) + " */";
        Result run = tsql(proxy.port(), "7.4", "off", target.password, "    packet size = 512", sql + "\ngo\nexit\n");
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).containsPattern(row(5, sql));
        assertThat(target.recording().batches).containsExactly(sql + "\n");
    }

    /**
     * FreeTDS's three settings to a listener with a certificate, the server offering TLS and the backend's
     * {@code tls.mode: prefer}: {@code off} says encryption is not supported (nothing encrypted on the client's leg;
     * the proxy still encrypts the login toward a server that offers it), {@code request} says OFF (the login
     * encrypted, the rest in clear), {@code require} says ON (everything encrypted, on both legs). What tsql sent in
     * clear is read by a relay in front of the proxy, what the server received in clear by the test TDS server.
     */
    @ParameterizedTest(name = "tds version = {0}, encryption = {1}")
    @CsvSource({
            "7.4, require, false, false, full TLSv1.2",
            "7.1, require, false, false, full TLSv1.2",
            "7.4, request, false, true, login-only TLSv1.2",
            "7.1, request, false, true, login-only TLSv1.2",
            "7.4, off, true, true, login-only TLSv1.2"})
    void encryptionSettingsAreHonouredLegByLeg(String version, String encryption, boolean loginInClear,
                                               boolean batchInClear, String serverTls) throws Exception {
        TdsTlsSetup.Legs legs = tls.start(Encryption.OFFERED, tls.listenerTls(), BackendTlsConfig.of(TlsMode.PREFER));
        target = legs.target();
        proxy = legs.proxy();
        tap = legs.tap();
        String sql = "SELECT 43 AS n /* " + encryption + " */";
        Result run = tsql(tap.port(), version, encryption, target.password, "", sql + "\ngo\nexit\n");
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).containsPattern(row(43, sql));
        assertThat(tap.sawInClear(target.user)).as("the login's user name on the client's wire")
                .isEqualTo(loginInClear);
        assertThat(tap.sawInClear(sql)).as("the batch on the client's wire").isEqualTo(batchInClear);
        TdsTestServer server = target.recording();
        assertThat(server.tls).containsExactly(serverTls);
        assertThat(server.receivedInClear(target.user)).as("the login's user name on the server's wire").isFalse();
        assertThat(server.receivedInClear(sql)).as("the batch on the server's wire").isEqualTo(batchInClear);
    }

    /** {@code encryption = require} to a listener without a certificate: tsql stops before sending its login. */
    @Test
    void requireToAListenerWithoutCertificateStopsBeforeTheLogin() throws Exception {
        startWithoutTls();
        tap = new WireTap(proxy.port());
        Result run = tsql(tap.port(), "7.4", "require", target.password, "", "SELECT 1\ngo\nexit\n");
        assertThat(run.exitCode()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("There was a problem connecting to the server");
        assertThat(tap.sawInClear(target.user)).as("no login sent in clear").isFalse();
        proxy.awaitSessionCount(0);
        assertThat(target.recording().logins).isEmpty();
    }
}
