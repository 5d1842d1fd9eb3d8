package io.memogate.testkit;

import static io.memogate.testkit.MemogateAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.memogate.broker.gateway.Tier;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.Network;
import org.testcontainers.images.builder.ImageFromDockerfile;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * MemogateContainer, built from the repository's Dockerfile, in front of the postgres:18 image on one network:
 * an application connects with getJdbcUrl() and the database container's credentials, its statements go through
 * the gateways (the meters count them), the console answers that role, and statements() gives the assertions
 * the proxy's records of them, as the in-process extension does. Needs a Docker engine; skipped with the reason
 * where there is none.
 */
class MemogateContainerIT {

    private static Network network;
    private static PostgreSQLContainer postgres;
    private static MemogateContainer memogate;

    @BeforeAll
    static void start() {
        assumeTrue(DockerClientFactory.instance().isDockerAvailable(),
                "no Docker engine is reachable: MemogateContainer is tested only where one is");
        Path repository = Path.of(System.getProperty("memogate.repository", "..")).toAbsolutePath().normalize();
        network = Network.newNetwork();
        postgres = new PostgreSQLContainer("postgres:18").withNetwork(network).withDatabaseName("shop");
        memogate = new MemogateContainer(new ImageFromDockerfile("memogate-testkit-it", false)
                .withDockerfile(repository.resolve("Dockerfile")), postgres)
                .withSettings(MemogateSettings.defaults().withTarget(64L << 20));
        memogate.start();
    }

    @AfterAll
    static void stop() {
        for (AutoCloseable started : new AutoCloseable[] {memogate, postgres, network}) {
            if (started != null) {
                try {
                    started.close();
                } catch (Exception e) {
                    throw new IllegalStateException("cannot stop " + started, e);
                }
            }
        }
    }

    @Test
    void anApplicationsStatementsGoThroughTheGatewaysOfTheContainer() throws Exception {
        try (Connection connection = DriverManager.getConnection(memogate.getJdbcUrl(), memogate.getUsername(),
                memogate.getPassword()); Statement statement = connection.createStatement()) {
            for (String sql : StarTables.ddl()) {
                statement.execute(sql);
            }
            statement.execute("select label from t1 where a = 42");
            statement.execute(StarTables.star(8));
        }

        Statements seen = memogate.statements();
        assertThat(seen.matching("from t1 where a = ?")).allBypassed().hasSize(1);
        assertThat(seen.largest()).admitted().tookTier(Tier.SMALL).hasFingerprintContaining("join t7 on t0.k7 = t7.a");
        assertThat(seen.largest().estimate().relations()).isEqualTo(8);
        assertThat(seen).noneAbove(Tier.SMALL).noneRefused();
        memogate.clearStatements();
        assertThat(memogate.statements().isEmpty()).isTrue();

        try (HttpClient http = HttpClient.newHttpClient()) {
            String metrics = http.send(HttpRequest.newBuilder(URI.create(memogate.getMetricsUrl())).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            assertThat(metrics).containsPattern("memogate_gateway_admitted_total\\{[^}]*tier=\"small\"[^}]*} [1-9]");
        }
        try (Connection console = DriverManager.getConnection(memogate.getConsoleJdbcUrl() + "?preferQueryMode=simple",
                memogate.getUsername(), memogate.getPassword()); Statement show = console.createStatement();
                ResultSet tiers = show.executeQuery("SHOW TIERS")) {
            assertThat(tiers.next()).isTrue();
        }
    }
}
