package io.memogate.proxy.tds.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.broker.gateway.Tier;
import io.memogate.estimator.CompileEstimate;
import io.memogate.proxy.admission.AdmissionControl;
import io.memogate.proxy.admission.StatementRecord;
import io.memogate.proxy.admission.StatementRecord.Outcome;
import io.memogate.proxy.cli.RunningProxy;
import io.memogate.proxy.config.AdminConfig;
import io.memogate.proxy.config.AdminHttpConfig;
import io.memogate.proxy.config.BackendConfig;
import io.memogate.proxy.config.BackendTlsConfig;
import io.memogate.proxy.config.BrokerConfig;
import io.memogate.proxy.config.ListenerConfig;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.config.Protocol;
import io.memogate.proxy.config.TlsMode;
import io.memogate.proxy.tds.TdsServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A {@code protocol: tds} listener served as {@code memogate run} serves it: its backend is a SQL Server to the
 * admission, batches are estimated by the T-SQL dialect, a 16-table star join in brackets takes the LARGE gateway
 * of an 8 MiB compile target (SQL Server's compile memory saturates at a few MB) while a point query bypasses, a
 * batch of several statements is weighed by its largest, and T-SQL that Calcite does not read is estimated from
 * its tokens and runs.
 */
class TdsEstimatedAdmissionIT {

    private static final int STAR = 16;
    private static final long COMPILE_TARGET = 8L << 20;
    private static TdsTarget target;
    private static RunningProxy proxy;
    private static AdmissionControl admission;

    @BeforeAll
    static void start() throws Exception {
        target = TdsTarget.open();
        proxy = estimating(target);
        admission = proxy.admission().orElseThrow().control("sqlserver");
    }

    /**
     * A proxy as {@code memogate run} starts it, with a tds listener to {@code target} and an admin port: the T-SQL
     * dialect estimates, the gateways are sized for an 8 MiB compile target, the last 100 statements are recorded.
     */
    static RunningProxy estimating(TdsTarget target) throws Exception {
        BackendConfig backend = new BackendConfig("sqlserver", target.host, target.port, List.of(), true,
                BackendTlsConfig.of(TlsMode.DISABLE));
        BrokerConfig broker = BrokerConfig.DEFAULTS;
        MemogateConfig config = MemogateConfig.of(backend)
                .withListeners(ListenerConfig.of("127.0.0.1", 0).withProtocol(Protocol.TDS))
                .withAdmin(new AdminConfig(AdminHttpConfig.of("127.0.0.1", 0)))
                .withBroker(new BrokerConfig(broker.monitor(), broker.interval(), broker.gracePeriod(),
                        broker.compileShare(), broker.hostMemoryBytes(), broker.coLocated(), COMPILE_TARGET,
                        COMPILE_TARGET));
        return RunningProxy.start(config.withAdmission(config.admission().withStatementRecords(100)));
    }

    @AfterAll
    static void stop() throws Exception {
        if (proxy != null) {
            proxy.close();
        }
        target.close();
    }

    @BeforeEach
    void forget() {
        admission.statements().clear();
    }

    /** A star join of {@code STAR} tables, as T-SQL: bracketed names, TOP, a Unicode literal. */
    static String star() {
        return "SELECT TOP (10) count(*) AS n FROM [dbo].[f] " + IntStream.range(1, STAR)
                .mapToObj(i -> "JOIN [s" + i + "] ON [f].[d" + i + "] = [s" + i + "].[id]")
                .collect(Collectors.joining(" ")) + " WHERE [f].[name] <> N'x'";
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(TdsProxy.url(proxy.server().port(), target), target.user, target.password);
    }

    private static StatementRecord run(Statement statement, String sql) throws SQLException {
        try (ResultSet rows = statement.executeQuery(sql)) {
            assertThat(rows.next()).isTrue();
        }
        List<StatementRecord> records = admission.statements().snapshot();
        return records.stream().reduce((first, last) -> last)
                .orElseThrow(() -> new AssertionError("no record of " + sql));
    }

    @Test
    void theListenersServerIsASqlServer() {
        assertThat(admission.kind()).isSameAs(TdsServer.KIND);
    }

    @Test
    void aSixteenTableStarTakesTheLargeGatewayWhileAPointQueryBypasses() throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            StatementRecord point = run(s, "SELECT TOP 1 [id] AS n FROM [s1] WHERE [id] = 2");
            StatementRecord join = run(s, star());
            assertThat(point.outcome()).isEqualTo(Outcome.BYPASSED);
            assertThat(join.outcome()).isEqualTo(Outcome.ADMITTED);
            assertThat(join.highestTier()).contains(Tier.LARGE);
            assertThat(join.estimate().relations()).isEqualTo(STAR);
        }
    }

    @Test
    void aBatchOfSeveralStatementsIsWeighedByItsLargest() throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            StatementRecord alone = run(s, star());
            StatementRecord batch = run(s, "SELECT 1 AS n FROM [s1]; " + star() + "; " + star());
            assertThat(batch.highestTier()).contains(Tier.LARGE);
            // one star's bytes (and the batch's few more tokens), not two stars'
            assertThat(batch.estimate().estimatedBytes()).isBetween(alone.estimate().estimatedBytes(),
                    alone.estimate().estimatedBytes() * 11 / 10);
        }
    }

    @Test
    void tsqlCalciteDoesNotReadIsEstimatedFromItsTokensAndRuns() throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            StatementRecord pivot = run(s, "SELECT count(*) AS n FROM (SELECT [a], [b], [c] FROM [s1] JOIN [s2] ON [s2].[id] = [s1].[id]"
                    + " JOIN [s3] ON [s3].[id] = [s2].[id]) AS [src] PIVOT (SUM([c]) FOR [b] IN ([x], [y])) AS [p]");
            assertThat(pivot.outcome()).isNotEqualTo(Outcome.BYPASSED);
            assertThat(pivot.estimate().parser()).isEqualTo(CompileEstimate.Parser.LEXICAL);
            assertThat(pivot.estimate().reason()).contains("Calcite could not read it");
        }
    }
}
