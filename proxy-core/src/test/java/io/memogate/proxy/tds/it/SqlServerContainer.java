package io.memogate.proxy.tds.it;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;

/**
 * SQL Server 2022 (Developer edition, the mcr.microsoft.com/mssql/server image) for the TDS tests, where a Docker
 * engine runs: started on first use and shared by the test JVM (Testcontainers removes it when the JVM ends). Where
 * no engine is reachable, as on the machines Memogate is built on, a test asking for it is skipped, saying so.
 */
final class SqlServerContainer {

    static final String IMAGE = "mcr.microsoft.com/mssql/server:2022-latest";
    /** SQL Server's password policy wants upper and lower case, a digit and a symbol. */
    static final String SA_PASSWORD = "Memogate-Test-2026!";
    private static final int PORT = 1433;

    /** Where the running container listens. */
    record Running(String host, int port) {
    }

    private static Running shared;

    private SqlServerContainer() {
    }

    static synchronized Running shared() {
        assumeTrue(DockerClientFactory.instance().isDockerAvailable(),
                "no Docker engine is reachable: the tests against " + IMAGE + " are skipped");
        if (shared == null) {
            GenericContainer<?> container = new GenericContainer<>(IMAGE)
                    .withEnv("ACCEPT_EULA", "Y")
                    .withEnv("MSSQL_SA_PASSWORD", SA_PASSWORD)
                    .withExposedPorts(PORT)
                    .waitingFor(Wait.forLogMessage(".*SQL Server is now ready for client connections.*", 1)
                            .withStartupTimeout(Duration.ofMinutes(3)));
            container.start();
            shared = new Running(container.getHost(), container.getMappedPort(PORT));
        }
        return shared;
    }
}
