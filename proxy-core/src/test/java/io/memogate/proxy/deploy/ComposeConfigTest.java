package io.memogate.proxy.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * docker-compose.yml as Docker's own client reads it ({@code docker compose config}), where the client and
 * its compose plugin are installed; skipped with a message where they are not. Needs no Docker engine.
 */
class ComposeConfigTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private record Result(int exitCode, String output) {}

    @Test
    void dockerComposeAcceptsTheFileAndSeesEveryService() throws Exception {
        Optional<Path> docker = onPath("docker");
        assumeTrue(docker.isPresent(), "no Docker client on PATH: `docker compose config` not run "
                + "(DeploymentFilesTest still checks the files against each other)");
        Result plugin = run(docker.get().toString(), "compose", "version");
        assumeTrue(plugin.exitCode() == 0, "the Docker client here has no compose plugin (`docker compose version`: "
                + plugin.output().strip() + "): `docker compose config` not run");

        Result config = run(docker.get().toString(), "compose", "--file", ROOT.resolve("docker-compose.yml").toString(),
                "config");

        assertThat(config.exitCode()).as(config.output()).isZero();
        JsonNode rendered = new YAMLMapper().readTree(config.output());
        assertThat(new TreeSet<>(iterable(rendered.path("services").fieldNames())))
                .containsExactly("grafana", "memogate", "postgres", "prometheus");
    }

    private static Optional<Path> onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String directory : path.split(File.pathSeparator)) {
            Path candidate = Path.of(directory, program);
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    private static Result run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).directory(ROOT.toFile()).redirectErrorStream(true).start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish:\n" + output);
        }
        return new Result(process.exitValue(), output);
    }

    private static <T> List<T> iterable(Iterator<T> iterator) {
        List<T> all = new ArrayList<>();
        iterator.forEachRemaining(all::add);
        return all;
    }
}
