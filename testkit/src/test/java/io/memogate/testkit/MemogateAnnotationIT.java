package io.memogate.testkit;

import static io.memogate.testkit.MemogateAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import io.memogate.broker.gateway.Tier;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.PasswordKind;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * {@link Memogate} on a test class, run as an application's build runs it: the proxy in front of the database whose
 * URL the environment names, handed to the tests as a parameter; and, when the variable is not set, a failure
 * that says which variable.
 */
class MemogateAnnotationIT {

    private static final String VARIABLE = "MEMOGATE_ANNOTATION_IT_URL";
    private static final String UNSET = "MEMOGATE_ANNOTATION_IT_NOT_SET";
    private static EmbeddedPostgres postgres;

    @BeforeAll
    static void startPostgres() throws SQLException {
        postgres = EmbeddedPostgres.start();
        postgres.createUser("app", "app-secret", PasswordKind.SCRAM);
        postgres.createDatabase("shop", "app");
        postgres.execute("shop", "create table orders (id int primary key, customer int)",
                "create table customers (id int primary key)", "grant select on orders, customers to app");
        System.setProperty(VARIABLE, postgres.jdbcUrl("shop"));
    }

    @AfterAll
    static void stopPostgres() {
        System.clearProperty(VARIABLE);
        if (postgres != null) {
            postgres.close();
        }
    }

    @Test
    void anAnnotatedClasssTestsGetTheProxyInFrontOfTheDatabaseTheEnvironmentNames() {
        EngineTestKit.engine("junit-jupiter").selectors(selectClass(Annotated.class)).execute().testEvents()
                .assertStatistics(stats -> stats.started(1).succeeded(1));
    }

    @Test
    void anAnnotatedClassWhoseVariableIsNotSetFailsNamingIt() {
        EngineTestKit.engine("junit-jupiter").selectors(selectClass(Unset.class)).execute().containerEvents()
                .assertThatEvents().haveExactly(1, finishedWithFailure(message(text -> text.contains(
                        "reads the database's URL from " + UNSET + ", which is set neither in the environment nor "
                                + "as a system property"))));
    }

    /** Run only by the test above, with the variable set. */
    @Memogate(urlFromEnvironment = VARIABLE)
    static class Annotated {

        @Test
        void ordersOfACustomer(MemogateProxy memogate) throws SQLException {
            try (Connection connection = DriverManager.getConnection(memogate.jdbcUrl(), "app", "app-secret");
                    Statement statement = connection.createStatement()) {
                statement.execute("select o.id from orders o join customers c on o.customer = c.id where c.id = 7");
            }
            // pgjdbc's own SET application_name is recorded too, as a bypass.
            assertThat(memogate.statements().matching("from orders")).hasSize(1).noneAbove(Tier.SMALL);
            assertThat(memogate.statements().last().estimate().relations()).isEqualTo(2);
        }
    }

    @Memogate(urlFromEnvironment = UNSET)
    static class Unset {

        @Test
        void neverRuns() {
        }
    }
}
