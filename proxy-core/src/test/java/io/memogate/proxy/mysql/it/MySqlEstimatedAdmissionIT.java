package io.memogate.proxy.mysql.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.broker.BrokerMode;
import io.memogate.broker.BrokerState;
import io.memogate.broker.gateway.Tier;
import io.memogate.proxy.admission.AdmissionControl;
import io.memogate.proxy.admission.StatementRecord.Outcome;
import io.memogate.proxy.admission.StatementRecord;
import io.memogate.proxy.cli.RunningProxy;
import io.memogate.proxy.config.AdminConfig;
import io.memogate.proxy.config.AdminHttpConfig;
import io.memogate.proxy.config.BackendConfig;
import io.memogate.proxy.config.BackendTlsConfig;
import io.memogate.proxy.config.BrokerConfig;
import io.memogate.proxy.config.ListenerConfig;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.config.MonitorConfig;
import io.memogate.proxy.config.Protocol;
import io.memogate.proxy.config.TlsMode;
import io.memogate.proxy.mysql.MySqlServer;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A {@code protocol: mysql} listener served as {@code memogate run} serves it, in front of the private MariaDB:
 * its statements estimated by MySQL's dialect under each session's optimizer settings. A join of ten tables
 * with pruning off (optimizer_prune_level 0, whose search time explodes with the tables) takes a gateway though
 * its memory is small; with the server's pruning it does not, and a point select bypasses. The settings a
 * session gives itself by SET, SET STATEMENT and SET ... DEFAULT are followed.
 */
@ExtendWith(MariaDbExtension.class)
class MySqlEstimatedAdmissionIT {

    private static final int STAR = 10;
    private static RunningProxy proxy;
    private static AdmissionControl admission;

    @BeforeAll
    static void start(PrivateMariaDb db) throws Exception {
        StringBuilder schema = new StringBuilder("USE ").append(PrivateMariaDb.DATABASE).append(";\n")
                .append("CREATE TABLE IF NOT EXISTS f (id INT PRIMARY KEY")
                .append(IntStream.range(1, STAR).mapToObj(i -> ", d" + i + " INT, KEY (d" + i + ")")
                        .collect(Collectors.joining())).append(");\n");
        for (int i = 1; i < STAR; i++) {
            schema.append("CREATE TABLE IF NOT EXISTS s").append(i).append(" (id INT PRIMARY KEY, v INT);\n")
                    .append("INSERT IGNORE INTO s").append(i).append(" VALUES (1, 1), (2, 2), (3, 3);\n");
        }
        schema.append("INSERT IGNORE INTO f VALUES (1").append(", 1".repeat(STAR - 1)).append(");\n");
        db.asRoot(schema.toString());
        proxy = RunningProxy.start(AdmittedThroughProxy.mysqlListener(db));
        admission = proxy.admission().orElseThrow().control("maria");
    }

    @AfterAll
    static void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    @BeforeEach
    void forget() {
        admission.statements().clear();
    }

    static String star() {
        return "SELECT count(*) FROM f " + IntStream.range(1, STAR)
                .mapToObj(i -> "JOIN s" + i + " ON f.d" + i + " = s" + i + ".id").collect(Collectors.joining(" "));
    }

    private static Connection connect() throws SQLException {
        return AdmittedThroughProxy.connect(proxy);
    }

    private static StatementRecord run(Statement statement, String sql) throws SQLException {
        return AdmittedThroughProxy.run(admission, statement, sql);
    }

    @Test
    void theListenersServerIsAMysqlServer() {
        assertThat(admission.kind()).isSameAs(MySqlServer.KIND);
    }

    /**
     * With broker.monitor set, the broker of a mysql listener's server polls it with the MySQL probe (over
     * mariadb-java-client): live, reading the server's memory and its optimizer settings, which become the
     * defaults its sessions are estimated with.
     */
    @Test
    void theBrokerPollsTheServerWithTheMysqlProbeAndReadsItsOptimizerSettings(PrivateMariaDb db) throws Exception {
        BackendConfig backend = new BackendConfig("maria", "127.0.0.1", db.port(), List.of(), true,
                BackendTlsConfig.of(TlsMode.DISABLE));
        MemogateConfig config = MemogateConfig.of(backend)
                .withListeners(ListenerConfig.of("127.0.0.1", 0).withProtocol(Protocol.MYSQL))
                .withAdmin(new AdminConfig(AdminHttpConfig.of("127.0.0.1", 0)))
                .withBroker(BrokerConfig.DEFAULTS.withMonitor(new MonitorConfig(PrivateMariaDb.USER,
                        Optional.of(PrivateMariaDb.PASSWORD), PrivateMariaDb.DATABASE, Optional.empty())));
        try (RunningProxy watched = RunningProxy.start(config)) {
            BrokerState state = watched.admission().orElseThrow().control("maria").broker().orElseThrow().pollOnce();
            assertThat(state.mode()).as(state.lastFailure().orElse("")).isEqualTo(BrokerMode.LIVE);
            assertThat(state.lastGoodSnapshot()).isPresent();
            assertThat(state.plannerSettings()).containsKeys("optimizer_search_depth", "optimizer_prune_level",
                    "optimizer_switch");
        }
    }

    @Test
    void aManyTableJoinWithPruningOffTakesAGatewayWhileAPointSelectBypasses() throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("SET SESSION optimizer_prune_level = 0, max_statement_time = 30");
            StatementRecord point = run(s, "SELECT count(*) FROM s1 WHERE id = 2");
            StatementRecord join = run(s, star());
            assertThat(point.outcome()).isEqualTo(Outcome.BYPASSED);
            assertThat(join.outcome()).isEqualTo(Outcome.ADMITTED);
            assertThat(join.highestTier()).contains(Tier.SMALL);
            assertThat(join.estimate().estimatedBytes()).isLessThan(1 << 20);
            assertThat(join.estimate().searchSeconds()).isGreaterThan(0.1);
        }
    }

    @Test
    void withTheServersPruningTheSameJoinNeedsNoGateway() throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            assertThat(run(s, star()).outcome()).isEqualTo(Outcome.BELOW_THRESHOLD);
        }
    }

    @Test
    void setStatementSettingsApplyToItsStatementOnly() throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            assertThat(run(s, "SET STATEMENT optimizer_prune_level = 0 FOR " + star()).outcome())
                    .isEqualTo(Outcome.ADMITTED);
            assertThat(run(s, star()).outcome()).isEqualTo(Outcome.BELOW_THRESHOLD);
        }
    }

    @Test
    void setToDefaultAndAShallowSearchDepthAreFollowed() throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("SET optimizer_prune_level = 0");
            s.execute("SET @@session.optimizer_search_depth = 2");
            assertThat(run(s, star()).outcome()).isEqualTo(Outcome.BELOW_THRESHOLD);
            s.execute("SET optimizer_search_depth = DEFAULT");
            assertThat(run(s, star()).outcome()).isEqualTo(Outcome.ADMITTED);
            s.execute("SET SESSION optimizer_prune_level = DEFAULT");
            assertThat(run(s, star()).outcome()).isEqualTo(Outcome.BELOW_THRESHOLD);
        }
    }

    @Test
    void eachSessionHasItsOwnSettings() throws SQLException {
        try (Connection pruningOff = connect(); Statement off = pruningOff.createStatement();
             Connection other = connect(); Statement s = other.createStatement()) {
            off.execute("SET optimizer_prune_level = 0");
            assertThat(run(s, star()).outcome()).isEqualTo(Outcome.BELOW_THRESHOLD);
            assertThat(run(off, star()).outcome()).isEqualTo(Outcome.ADMITTED);
        }
    }

    /** MySQL's compile memory grows with the statement: a long IN list over one table is weighed, not bypassed. */
    @Test
    void aLongInListOverOneTableTakesAGatewayByItsSize() throws SQLException {
        String values = IntStream.range(0, 30_000).mapToObj(Integer::toString).collect(Collectors.joining(","));
        try (Connection c = connect(); Statement s = c.createStatement()) {
            StatementRecord few = run(s, "SELECT count(*) FROM s1 WHERE v IN (1, 2, 3)");
            StatementRecord list = run(s, "SELECT count(*) FROM s1 WHERE v IN (" + values + ")");
            assertThat(few.outcome()).isEqualTo(Outcome.BYPASSED);
            assertThat(list.outcome()).isEqualTo(Outcome.ADMITTED);
            // measured on MariaDB 10.11: 8.6 MB for 30,000 values
            assertThat(list.estimate().estimatedBytes()).isGreaterThan(4L << 20);
        }
    }
}
