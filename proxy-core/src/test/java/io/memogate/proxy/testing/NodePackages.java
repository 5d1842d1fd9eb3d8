package io.memogate.proxy.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * A Node.js client program of the tests, from a test resource directory that holds its package.json, the
 * package-lock.json that pins every package, and its scripts: installed with {@code npm ci} into
 * {@code target/node/<name>-<hash of the lockfile>}, once per lockfile (a changed lockfile gets a new directory), so
 * the tests drive exactly the versions the lockfile names. Without node or npm on the PATH the test is skipped,
 * saying so; an install that fails fails the test with npm's own output.
 */
public final class NodePackages {

    private static final Path ROOT = Path.of("target", "node");
    private static final long INSTALL_MINUTES = 10;

    private NodePackages() {
    }

    /** The directory where {@code resource}'s program is installed, its node_modules complete. */
    public static synchronized Path installed(String resource) throws IOException, InterruptedException {
        String node = version("node");
        String npm = version("npm");
        Assumptions.assumeTrue(node != null && npm != null, "needs Node.js and npm on the PATH to run "
                + resource + " (node: " + (node == null ? "missing" : node) + ", npm: "
                + (npm == null ? "missing" : npm) + "); Debian's nodejs and npm packages will do");
        Path source = resourceDirectory(resource);
        Path lockfile = source.resolve("package-lock.json");
        if (!Files.isRegularFile(lockfile)) {
            throw new IllegalStateException(resource + " has no package-lock.json: the versions tested must be pinned");
        }
        Path target = ROOT.resolve(source.getFileName() + "-" + hash(lockfile)).toAbsolutePath();
        Path done = target.resolve(".installed");
        Files.createDirectories(target);
        try (Stream<Path> files = Files.list(source)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Files.copy(file, target.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        if (Files.exists(done)) {
            return target;
        }
        Path log = target.resolve("npm-ci.log");
        Process install = new ProcessBuilder(List.of("npm", "ci", "--no-audit", "--no-fund", "--prefer-offline"))
                .directory(target.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!install.waitFor(INSTALL_MINUTES, TimeUnit.MINUTES)) {
            install.destroyForcibly();
            throw new AssertionError("npm ci in " + target + " did not finish in " + INSTALL_MINUTES + " minutes:\n"
                    + Files.readString(log));
        }
        if (install.exitValue() != 0) {
            throw new AssertionError("npm ci in " + target + " failed (exit " + install.exitValue() + "):\n"
                    + Files.readString(log));
        }
        Files.writeString(done, "node " + node + ", npm " + npm + "\n");
        return target;
    }

    /** What {@code program --version} prints, or null when it cannot be run. */
    public static String version(String program) throws InterruptedException {
        try {
            Process process = new ProcessBuilder(program, "--version").redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return null;
            }
            return process.exitValue() == 0 ? output : null;
        } catch (IOException notThere) {
            return null;
        }
    }

    private static Path resourceDirectory(String resource) {
        var url = NodePackages.class.getClassLoader().getResource(resource + "/package.json");
        if (url == null) {
            throw new IllegalStateException("no test resource " + resource + "/package.json");
        }
        try {
            return Path.of(url.toURI()).getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String hash(Path file) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file));
            return HexFormat.of().formatHex(digest, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
