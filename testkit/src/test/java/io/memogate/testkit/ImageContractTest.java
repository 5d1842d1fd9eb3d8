package io.memogate.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * MemogateContainer agrees with the image the repository's Dockerfile builds (its ports, where it reads its
 * configuration), and that Dockerfile can still build: it copies every module's pom, since Maven reads the whole
 * reactor. Checked here because the container itself runs only where a Docker engine exists.
 */
class ImageContractTest {

    private static final Path REPOSITORY = Path.of(System.getProperty("memogate.repository", "..")).toAbsolutePath()
            .normalize();

    @Test
    void theContainerUsesThePortsAndTheConfigurationFileOfTheImage() throws IOException {
        String dockerfile = Files.readString(REPOSITORY.resolve("Dockerfile"));

        assertThat(dockerfile).contains("EXPOSE " + MemogateContainer.PORT + " " + MemogateContainer.ADMIN_HTTP_PORT)
                .contains("CMD [\"run\", \"--config\", \"" + ContainerConfig.PATH + "\"]");
    }

    @Test
    void theDockerfileCopiesEveryModulesPom() throws IOException {
        String dockerfile = Files.readString(REPOSITORY.resolve("Dockerfile"));
        Matcher module = Pattern.compile("<module>([^<]+)</module>").matcher(Files.readString(
                REPOSITORY.resolve("pom.xml")));

        int modules = 0;
        while (module.find()) {
            modules++;
            assertThat(dockerfile).contains("COPY " + module.group(1) + "/pom.xml " + module.group(1) + "/");
        }
        assertThat(modules).isGreaterThanOrEqualTo(6);
    }
}
