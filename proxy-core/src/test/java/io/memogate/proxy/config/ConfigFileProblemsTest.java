package io.memogate.proxy.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a user reads when the file itself is wrong (YAML syntax, unknown keys, a list where a value belongs):
 * one line per mistake, with the field path and the line. {@link ConfigValueProblemsTest} has the values.
 */
class ConfigFileProblemsTest {

    private static final String BACKEND = "backends:\n  - {name: main, host: localhost}\n";

    private final ConfigLoader loader = new ConfigLoader();

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"", "\n\n", "# nothing but a comment\n", "---\n", "~\n"})
    void anEmptyFile(String yaml) {
        assertThat(problems(yaml)).containsExactly("the configuration file is empty");
    }

    @Test
    void aFileThatIsNotAMapping() {
        assertThat(problems("- listeners\n- backends\n")).containsExactly("the configuration must be a mapping "
                + "with the keys listeners, backends, limits, admin, admission, broker, estimator, recycle and network, "
                + "was a list (line 1, column 1)");
    }

    @Test
    void unknownFieldsWithTheirLineAndTheKnownOnes() {
        assertThat(problems("""
                # a comment

                listners:
                  - port: 7000
                backends:
                  - name: main
                    host: localhost
                    tls:
                      mode: require
                      sni: db
                limits:
                  maxMessageSize: 1MiB
                admin:
                  http:
                    address: 0.0.0.0
                admission:
                  tiers:
                    large: {limit: 1, fraction: 1}
                    huge: {limit: 1}
                broker:
                  monitor: {user: m, host: db}
                  target: 1GiB
                """)).containsExactly(
                "unknown field 'listners' (line 3, column 1); known fields: admin, admission, backends, broker, estimator, "
                        + "fleet, limits, listeners, network, recycle",
                "backends[0].tls: unknown field 'sni' (line 10, column 7); known fields: mode, serverName, strict, "
                        + "trustedCertificates",
                "limits: unknown field 'maxMessageSize' (line 12, column 3); known fields: connectTimeout, "
                        + "loginTimeout, maxClientConnections, maxMessageBytes, shutdownTimeout",
                "admin.http: unknown field 'address' (line 15, column 5); known fields: enabled, host, port",
                // LARGE has no next tier, so no fraction to say when to take it.
                "admission.tiers.large: unknown field 'fraction' (line 18, column 23); known fields: limit, maxQueue, "
                        + "timeout",
                "admission.tiers: unknown field 'huge' (line 19, column 5); known fields: large, medium, small",
                "broker.monitor: unknown field 'host' (line 21, column 22); known fields: backend, database, password, "
                        + "user",
                "broker: unknown field 'target' (line 22, column 3); known fields: coLocated, compileShare, "
                        + "gracePeriod, hostMemory, interval, minimumTarget, monitor, staticTarget");
    }

    @Test
    void yamlSyntaxErrorsWithLineAndColumn() {
        assertThat(problems("backends:\n  - name: main\n   host: localhost\n")).containsExactly(
                "YAML syntax error (line 3, column 4): while parsing a block collection; "
                        + "expected <block end>, but found '<block mapping start>'");
        assertThat(problems("backends:\n  - name: main\n\thost: localhost\n")).singleElement().asString()
                .startsWith("YAML syntax error (line 3, column 1): while scanning for the next token; "
                        + "found character '\\t(TAB)' that cannot start any token.");
    }

    @Test
    void aKeyGivenTwice() {
        assertThat(problems("backends:\n  - name: main\n    host: a\n    host: b\n"))
                .containsExactly("backends[0]: duplicate field 'host' (line 4, column 9)");
    }

    @Test
    void yamlAliasesWhichJacksonWouldReadAsTheirName() {
        assertThat(problems("""
                backends:
                  - &main {name: main, host: &h db.internal}
                  - {name: b, host: *h, databases: [x]}
                  - *main
                """)).containsExactly(
                "backends[1].host: YAML aliases are not supported, write the value instead of *h (line 3, column 21)",
                "backends[2]: YAML aliases are not supported, write the value instead of *main (line 4, column 5)");
    }

    @Test
    void aSecondDocument() {
        assertThat(problems(BACKEND + "---\nlimits: {}\n"))
                .containsExactly("a second YAML document starts (line 4, column 1); the configuration is one document");
    }

    @Test
    void valuesOfTheWrongShape() {
        assertThat(problems("""
                listeners: {host: 127.0.0.1}
                backends:
                  - name: main
                    host: [a, b]
                    databases: demo
                    tls: require
                limits: 5
                admin: {http: [9930]}
                admission: {tiers: [small], cpus: [8]}
                broker: {monitor: postgres}
                """)).containsExactly(
                "listeners must be a list, was a mapping (line 1, column 12)",
                "backends[0].host must be a single value, was a list (line 4, column 11)",
                "backends[0].databases must be a list, was 'demo' (line 5, column 16)",
                "backends[0].tls must be a mapping, was 'require' (line 6, column 10)",
                "limits must be a mapping, was 5 (line 7, column 9)",
                "admin.http must be a mapping, was a list (line 8, column 15)",
                "admission.tiers must be a mapping, was a list (line 9, column 20)",
                "admission.cpus must be a single value, was a list (line 9, column 35)",
                "broker.monitor must be a mapping, was 'postgres' (line 10, column 19)");
    }

    @Test
    void elementsOfTheWrongShape() {
        assertThat(problems("""
                listeners: [5]
                backends:
                  - main
                  - {name: b, host: h, databases: [demo, {name: x}], tls: ""}
                """)).containsExactly(
                "listeners[0] must be a mapping, was 5 (line 1, column 13)",
                "backends[0] must be a mapping, was 'main' (line 3, column 5)",
                "backends[1].databases[1] must be a single value, was a mapping (line 4, column 42)",
                // Jackson cannot be talked into going on after this one; reported all the same.
                "backends[1].tls must be a mapping, was '' (line 4, column 59)");
    }

    private List<String> problems(String yaml) {
        try {
            MemogateConfig config = loader.parse(yaml, dir);
            return fail("expected a ConfigException, got " + config);
        } catch (ConfigException e) {
            assertThat(e.getMessage()).endsWith(String.join("\n  ", e.problems()));
            return e.problems();
        }
    }
}
