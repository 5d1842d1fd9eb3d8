package com.example.sales;

import static io.memogate.testkit.MemogateAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.broker.gateway.Tier;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.PasswordKind;
import io.memogate.testkit.MemogateExtension;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The application's queries run through Memogate, as production runs them, and the build fails when one of them
 * comes to need a bigger compile gateway than the team agreed on: the order page's lookup must bypass admission,
 * the monthly report may take LARGE (and the team knows it does).
 */
class SalesQueriesIT {

    private static final String USER = "sales_app";
    private static final String PASSWORD = "sales-secret";
    private static final EmbeddedPostgres POSTGRES = EmbeddedPostgres.start();

    /**
     * The gateways as production sizes them (limits 8, 2, 1; fractions 0.25, 0.5), with a compile-memory target
     * scaled down to 4 MiB so that the test server plans nothing big: a statement needs MEDIUM from 1 MiB and
     * LARGE from 2 MiB of planner memory. The report, planned with PostgreSQL's default join_collapse_limit of 8,
     * is estimated at about 3 MB.
     */
    @RegisterExtension
    static final MemogateExtension MEMOGATE = MemogateExtension.inFrontOf(SalesQueriesIT::salesDatabase)
            .with(settings -> settings.withTarget(4L << 20).withTierLimits(8, 2, 1).withFractions(0.25, 0.5));

    private static String salesDatabase() {
        try {
            POSTGRES.createUser(USER, PASSWORD, PasswordKind.SCRAM);
            POSTGRES.createDatabase("sales", USER);
            try (Connection owner = POSTGRES.connect("sales", USER, PASSWORD);
                    Statement statement = owner.createStatement()) {
                statement.execute(resource("schema.sql"));
                statement.execute("insert into sales (id, amount) values (42, 1999)");
            }
        } catch (SQLException | IOException e) {
            throw new IllegalStateException("cannot prepare the sales database", e);
        }
        return POSTGRES.jdbcUrl("sales");
    }

    @AfterAll
    static void stopPostgres() {
        POSTGRES.close();
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(MEMOGATE.jdbcUrl(), USER, PASSWORD);
    }

    @Test
    void theOrderPagesLookupBypassesAdmission() throws SQLException {
        try (Connection connection = connect()) {
            assertThat(new SalesQueries(connection).amountOfSale(42)).contains(1999L);
        }

        assertThat(MEMOGATE.statements().matching("from sales where id")).allBypassed();
        assertThat(MEMOGATE.statements()).noneAbove(Tier.SMALL);
    }

    @Test
    void theMonthlyReportNeedsTheLargeGateway() throws SQLException {
        try (Connection connection = connect()) {
            assertThat(new SalesQueries(connection).monthlyReport()).isZero();
        }

        assertThat(MEMOGATE.statements().largest()).tookTier(Tier.LARGE).admitted()
                .hasFingerprintContaining("join price_list");
        assertThat(MEMOGATE.statements().largest().estimate().relations()).isEqualTo(16);
        assertThat(MEMOGATE.statements()).noneRefused().noneWaited();
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = SalesQueries.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
