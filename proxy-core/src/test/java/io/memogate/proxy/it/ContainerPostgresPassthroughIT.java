package io.memogate.proxy.it;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * The pass-through contract against the official postgres:18 image, for machines with a Docker
 * engine. Skipped, with the reason, where there is none (these build machines have only the client).
 */
class ContainerPostgresPassthroughIT extends PassthroughContract {

    private static PostgreSQLContainer container;

    @BeforeAll
    static void startContainer() {
        assumeTrue(dockerAvailable(), "no Docker engine is reachable: the postgres:18 container suite is skipped");
        container = new PostgreSQLContainer("postgres:18").withDatabaseName("memogate").withUsername("memogate")
                .withPassword("memogate");
        container.start();
    }

    @AfterAll
    static void stopContainer() {
        if (container != null) {
            container.stop();
        }
    }

    private static boolean dockerAvailable() {
        return DockerClientFactory.instance().isDockerAvailable();
    }

    @Override
    protected Backend backend() {
        return new Backend(container.getHost(), container.getFirstMappedPort(), "memogate", "memogate", "memogate");
    }
}
