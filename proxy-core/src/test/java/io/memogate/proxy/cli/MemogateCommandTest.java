package io.memogate.proxy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.proxy.postgres.embedded.SelfSignedCertificate;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class MemogateCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int execute(String... args) {
        CommandLine commandLine = MemogateCommand.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return commandLine.execute(args);
    }

    /** README.md documents `bin/memogate test`, bench/README.md `bench`; the launcher runs them, and --help names them. */
    @Test
    void helpListsTheLaunchersTestAndBenchToo() {
        assertThat(execute("--help")).isZero();

        assertThat(out.toString()).contains("\n  run        Run the proxy with a configuration file.\n")
                .contains("\n  test       Run the whole test suite")
                .contains("\n  bench      Run the benchmarks");
    }

    @Test
    void anInvalidConfigurationNamesEveryProblemAndNoStackTrace(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("memogate.yaml");
        Files.writeString(config, """
                backends:
                  - name: main
                    host: 127.0.0.1
                    port: 70000
                limits:
                  maxMessageBytes: 12XB
                """);

        int exit = execute("run", "--config", config.toString());

        assertThat(exit).isEqualTo(MemogateCommand.EXIT_BAD_CONFIGURATION);
        assertThat(err.toString())
                .contains("invalid configuration")
                .contains("backends[0].port")
                .contains("limits.maxMessageBytes")
                .doesNotContain("\tat ");
    }

    @Test
    void aMissingConfigurationFileIsNamed(@TempDir Path dir) {
        int exit = execute("run", "--config", dir.resolve("absent.yaml").toString());

        assertThat(exit).isEqualTo(MemogateCommand.EXIT_BAD_CONFIGURATION);
        assertThat(err.toString()).contains("file not found").contains("absent.yaml");
    }

    @Test
    void aConfigurationFileThatIsADirectoryIsOneLine(@TempDir Path dir) {
        int exit = execute("run", "--config", dir.toString());

        assertThat(exit).isEqualTo(MemogateCommand.EXIT_BAD_CONFIGURATION);
        assertThat(err.toString()).isEqualTo("memogate: cannot read the configuration file " + dir.toAbsolutePath()
                + ": it is a directory, not a YAML file\n");
    }

    @Test
    void aYamlSyntaxErrorNamesItsLine(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("memogate.yaml");
        Files.writeString(config, "backends:\n\t- name: main\n"); // YAML forbids tabs in indentation

        assertThat(execute("run", "--config", config.toString())).isEqualTo(MemogateCommand.EXIT_BAD_CONFIGURATION);
        assertThat(err.toString()).startsWith("memogate: invalid configuration " + config + " (1 problem):\n  YAML syntax "
                + "error (line 2, column 1): ").doesNotContain("\tat ");
    }

    @Test
    void aTakenProxyPortIsOneLineAndFreesWhatHadStarted(@TempDir Path dir) throws Exception {
        int admin = freePort();
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            Path config = config(dir, "127.0.0.1", taken.getLocalPort(), admin, "");

            int exit = execute("run", "--config", config.toString());

            assertThat(exit).isEqualTo(MemogateCommand.EXIT_CANNOT_LISTEN);
            assertThat(err.toString()).isEqualTo("memogate: cannot listen on 127.0.0.1:" + taken.getLocalPort()
                    + ": address already in use (is another proxy or PgBouncer running? stop it or change "
                    + "listeners[0].port in " + config + ")\n");
        }
        // The admin endpoint had started before the proxy's bind failed: its port is free again.
        new ServerSocket(admin, 1, InetAddress.getByName("127.0.0.1")).close();
    }

    @Test
    void aTakenAdminPortIsOneLine(@TempDir Path dir) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            Path config = config(dir, "127.0.0.1", 0, taken.getLocalPort(), "");

            assertThat(execute("run", "--config", config.toString())).isEqualTo(MemogateCommand.EXIT_CANNOT_LISTEN);
            assertThat(err.toString()).isEqualTo("memogate: cannot listen for admin HTTP on 127.0.0.1:"
                    + taken.getLocalPort() + ": address already in use (is another Memogate running? stop it or "
                    + "change admin.http.port in " + config + ")\n");
        }
    }

    @Test
    void aListenAddressOfAnotherMachineIsOneLine(@TempDir Path dir) throws Exception {
        Path config = config(dir, "203.0.113.7", 6432, 0, ""); // TEST-NET-3: no machine's address

        assertThat(execute("run", "--config", config.toString())).isEqualTo(MemogateCommand.EXIT_CANNOT_LISTEN);
        assertThat(err.toString()).isEqualTo("memogate: cannot listen on 203.0.113.7:6432: not an address of this "
                + "machine (use an address of this machine, 127.0.0.1, or 0.0.0.0 for all: change listeners[0].host in "
                + config + ")\n");
    }

    @Test
    void aCertificateThatIsNotPemNamesItsField(@TempDir Path dir) throws Exception {
        SelfSignedCertificate real = SelfSignedCertificate.generate(dir);
        Path notPem = Files.writeString(dir.resolve("server.crt"), "not a certificate\n");
        Path config = config(dir, "127.0.0.1", 0, 0, "tls: {certificate: " + notPem + ", privateKey: " + real.keyFile() + "}");

        assertThat(execute("run", "--config", config.toString())).isEqualTo(MemogateCommand.EXIT_BAD_CONFIGURATION);
        assertThat(err.toString()).startsWith("memogate: invalid configuration " + config
                + " (1 problem):\n  listeners[0].tls.certificate: " + notPem + " is not a PEM certificate file (-----BEGIN CERTIFICATE-----): ").doesNotContain("\tat ");
    }

    @Test
    void aKeyThatIsNotPemNamesItsField(@TempDir Path dir) throws Exception {
        SelfSignedCertificate real = SelfSignedCertificate.generate(dir);
        Path config = config(dir, "127.0.0.1", 0, 0,
                "tls: {certificate: " + real.certificateFile() + ", privateKey: " + real.certificateFile() + "}");

        assertThat(execute("run", "--config", config.toString())).isEqualTo(MemogateCommand.EXIT_BAD_CONFIGURATION);
        assertThat(err.toString()).startsWith("memogate: invalid configuration " + config
                + " (1 problem):\n  listeners[0].tls.privateKey: " + real.certificateFile() + " is not an unencrypted PEM private key").doesNotContain("\tat ");
    }

    /** A configuration with one listener (with {@code tls}, a flow mapping, when not empty) and admin HTTP. */
    private static Path config(Path dir, String host, int port, int adminPort, String tls) throws IOException {
        return Files.writeString(dir.resolve("memogate.yaml"), """
                listeners: [{host: %s, port: %d%s}]
                backends: [{name: main, host: 127.0.0.1, port: 5432, tls: {mode: disable}}]
                admin: {http: {port: %d}}
                admission: {enabled: false}
                """.formatted(host, port, tls.isEmpty() ? "" : ", " + tls, adminPort));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }

    @Test
    void aSubCommandIsRequired() {
        assertThat(execute()).isNotZero();
        assertThat(err.toString()).contains("sub-command");
    }

    @Test
    void helpListsTheSubCommands() {
        assertThat(execute("--help")).isZero();
        assertThat(out.toString()).contains("demo").contains("run");
    }
}
