package io.memogate.proxy.mysql.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.broker.gateway.Tier;
import io.memogate.estimator.mysql.SyntheticJoins;
import io.memogate.proxy.admission.AdmissionControl;
import io.memogate.proxy.admission.SearchTiers;
import io.memogate.proxy.admission.StatementRecord;
import io.memogate.proxy.admission.StatementRecord.Outcome;
import io.memogate.proxy.cli.RunningProxy;
import io.memogate.proxy.config.MemogateConfig;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Gating on optimizer time beyond SMALL, in front of the private MariaDB: a clique of ten tables with pruning
 * off, which MariaDB 10.11 searches for about two seconds in under a megabyte, takes MEDIUM as well
 * ({@code admission.search.medium}, 1 s by default), a clique of nine (about 0.2 s) SMALL only, and a point
 * select bypasses. Every statement runs under max_statement_time, so none can search for minutes.
 */
@ExtendWith(MariaDbExtension.class)
class MySqlSearchTiersIT {

    private static final int TABLES = 10;
    private static RunningProxy proxy;
    private static AdmissionControl admission;

    @BeforeAll
    static void start(PrivateMariaDb db) throws Exception {
        StringBuilder schema = new StringBuilder("USE ").append(PrivateMariaDb.DATABASE).append(";\n");
        for (int i = 1; i <= TABLES; i++) {
            schema.append("CREATE TABLE IF NOT EXISTS c").append(i).append(" (id INT PRIMARY KEY, a INT, KEY (a));\n")
                    .append("INSERT IGNORE INTO c").append(i).append(" VALUES (1, 1), (2, 2), (3, 3), (4, 1);\n");
        }
        db.asRoot(schema.toString());
        MemogateConfig config = AdmittedThroughProxy.mysqlListener(db);
        proxy = RunningProxy.start(config.withAdmission(config.admission().withSearchTiers(SearchTiers.DEFAULTS)));
        admission = proxy.admission().orElseThrow().control("maria");
    }

    @AfterAll
    static void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    static String clique(int n) {
        return SyntheticJoins.clique("c", n);
    }

    private static Connection connect() throws SQLException {
        return AdmittedThroughProxy.connect(proxy);
    }

    private static StatementRecord run(Statement statement, String sql) throws SQLException {
        return AdmittedThroughProxy.run(admission, statement, sql);
    }

    @Test
    void aLongerPredictedSearchTakesAHigherTierWhileAPointSelectBypasses() throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("SET SESSION optimizer_prune_level = 0, max_statement_time = 60");
            StatementRecord point = run(s, "SELECT count(*) FROM c1 WHERE id = 2");
            StatementRecord nine = run(s, clique(TABLES - 1));
            StatementRecord ten = run(s, clique(TABLES));

            assertThat(point.outcome()).isEqualTo(Outcome.BYPASSED);
            assertThat(nine.outcome()).isEqualTo(Outcome.ADMITTED);
            assertThat(nine.highestTier()).contains(Tier.SMALL);
            assertThat(ten.outcome()).isEqualTo(Outcome.ADMITTED);
            assertThat(ten.highestTier()).contains(Tier.MEDIUM);
            assertThat(ten.estimate().estimatedBytes()).as("its memory alone would take no gateway")
                    .isLessThan(1 << 20);
            assertThat(ten.estimate().searchSeconds()).isGreaterThanOrEqualTo(1);
        }
    }

    @Test
    void withTheServersPruningTheCliqueTakesNoGateway() throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("SET SESSION max_statement_time = 60");
            assertThat(run(s, clique(TABLES)).outcome()).isEqualTo(Outcome.BELOW_THRESHOLD);
        }
    }
}
