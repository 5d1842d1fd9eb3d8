package io.memogate.proxy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.memogate.estimator.planner.MemoryTerms;
import io.memogate.estimator.postgres.MemoryCoefficients;
import io.memogate.proxy.postgres.calibrate.CoefficientsFile;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/** `memogate estimate` as a user runs it: arguments in, one JSON line per statement out. */
class EstimateCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = MemogateCommand.commandLine(); // with the error handling a user gets
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        return cli.execute(args);
    }

    private List<JsonNode> lines() throws Exception {
        List<JsonNode> lines = new ArrayList<>();
        for (String line : out.toString().strip().split("\n")) {
            lines.add(new ObjectMapper().readTree(line));
        }
        return lines;
    }

    @Test
    void printsOneJsonLinePerStatement() throws Exception {
        // A chain of three tables (4 pairs), then a statement that bypasses.
        int code = run("estimate", "SELECT * FROM a, b, c WHERE a.x = b.x AND b.y = c.y;", "select 1");
        assertThat(code).as(err.toString()).isZero();
        List<JsonNode> lines = lines();
        assertThat(lines).hasSize(2);
        JsonNode chain = lines.get(0);
        assertThat(chain.get("memoPairs").asLong()).isEqualTo(4);
        assertThat(chain.get("parser").asText()).isEqualTo("calcite");
        assertThat(chain.get("bypass").asBoolean()).isFalse();
        assertThat(chain.get("estimatedBytes").asLong()).isPositive();
        assertThat(chain.get("blocks").asInt()).isEqualTo(1);
        assertThat(chain.get("relations").asInt()).isEqualTo(3);
        assertThat(chain.get("fingerprint").asText()).contains("from a, b, c");
        assertThat(chain.get("reason").asText()).contains("Calcite");
        // What the bytes are made of: one statement, its 4 pairs planned for all rows, 3 relations.
        JsonNode terms = chain.get("terms");
        assertThat(terms.get("statements").asLong()).isEqualTo(1);
        assertThat(terms.get("joinPairs").asLong()).isEqualTo(4);
        assertThat(terms.get("fastStartJoinPairs").asLong()).isZero();
        assertThat(terms.get("relations").asLong()).isEqualTo(3);
        assertThat(terms.size()).isEqualTo(MemoryTerms.NAMES.size());
        assertThat(lines.get(1).get("bypass").asBoolean()).isTrue();
        assertThat(lines.get(1).get("parser").asText()).isEqualTo("none");
    }

    @Test
    void settingsChangeTheSearch(@TempDir Path dir) throws Exception {
        // 12 tables in a FROM list: GEQO under the defaults, exhaustive search with geqo_threshold 20.
        StringBuilder sql = new StringBuilder("SELECT * FROM t0");
        for (int i = 1; i < 12; i++) {
            sql.append(", t").append(i);
        }
        sql.append(" WHERE t0.c = t1.c");
        for (int i = 2; i < 12; i++) {
            sql.append(" AND t").append(i - 1).append(".d").append(i).append(" = t").append(i).append(".d").append(i);
        }
        Path file = dir.resolve("q.sql");
        Files.writeString(file, sql + ";\n");
        assertThat(run("estimate", "--file", file.toString())).isZero();
        assertThat(lines().get(0).get("search").asText()).isEqualTo("geqo");
        out.getBuffer().setLength(0);
        assertThat(run("estimate", "--setting", "geqo_threshold=20", "--file", file.toString())).isZero();
        JsonNode wide = lines().get(0);
        assertThat(wide.get("search").asText()).isEqualTo("dp");
        assertThat(wide.get("memoPairs").asLong()).isEqualTo((12L * 12 * 12 - 12) / 6);
    }

    @Test
    void rejectsSettingsItDoesNotModelAndMissingInput() {
        assertThat(run("estimate", "--setting", "work_mem=64MB", "select 1")).isNotZero();
        assertThat(err.toString()).contains("work_mem");
        assertThat(run("estimate")).isNotZero();
    }

    /** Estimating under the defaults instead of a mistyped value would answer a question not asked. */
    @ParameterizedTest
    @ValueSource(strings = {"join_collapse_limit=abc", "join_collapse_limit=0", "join_collapse_limit=",
        "geqo=maybe", "geqo_threshold=1", "geqo_effort=50"})
    void refusesAValuePostgresWouldRefuse(String setting) {
        assertThat(run("estimate", "--setting", setting, "select 1")).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err.toString()).contains("--setting " + setting + ": PostgreSQL would refuse this value");
    }

    @Test
    void coefficientsFromACalibrationFileGiveItsBytes(@TempDir Path dir) throws Exception {
        // A chain of three tables: 4 pairs, 3 relations, one statement.
        String chain = "SELECT * FROM a, b, c WHERE a.x = b.x AND b.y = c.y";
        CoefficientsFile.write(dir.resolve("c.yaml"), new MemoryCoefficients(1000, 100, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), List.of());

        assertThat(run("estimate", "--coefficients", dir.resolve("c.yaml").toString(), chain)).as(err.toString()).isZero();

        assertThat(lines().get(0).get("estimatedBytes").asLong()).isEqualTo(1000 + 4 * 100 + 3 * 10);
    }

    @Test
    void aBadCoefficientsFileIsOneLine(@TempDir Path dir) {
        Path none = dir.resolve("none.yaml");

        assertThat(run("estimate", "--coefficients", none.toString(), "select 1"))
                .isEqualTo(MemogateCommand.EXIT_BAD_CONFIGURATION);
        assertThat(err.toString()).isEqualTo("memogate: --coefficients " + none + ": file not found\n");
    }

    @Test
    void aMissingFileIsOneLineNamingTheOptionAndTheFile(@TempDir Path dir) {
        Path none = dir.resolve("none.sql");

        assertThat(run("estimate", "--file", none.toString())).isEqualTo(MemogateCommand.EXIT_BAD_CONFIGURATION);
        assertThat(err.toString()).isEqualTo("memogate: --file " + none + ": file not found\n");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void aDirectoryGivenAsFileIsOneLine(@TempDir Path dir) {
        assertThat(run("estimate", "--file", dir.toString())).isEqualTo(MemogateCommand.EXIT_BAD_CONFIGURATION);
        assertThat(err.toString()).isEqualTo("memogate: --file " + dir + ": is a directory, not a file\n");
    }

    @Test
    void aFileThatIsNotUtf8IsOneLine(@TempDir Path dir) throws Exception {
        Path latin1 = Files.write(dir.resolve("latin1.sql"), "select 'caf\u00e9'".getBytes(StandardCharsets.ISO_8859_1));

        assertThat(run("estimate", "--file", latin1.toString())).isEqualTo(MemogateCommand.EXIT_BAD_CONFIGURATION);
        assertThat(err.toString()).isEqualTo("memogate: --file " + latin1 + ": not UTF-8 text\n");
    }

    @Test
    void mysqlStatementsAreEstimatedWithTheOptimizerVariablesGiven() throws Exception {
        String clique = "SELECT count(*) FROM s1, s2, s3, s4, s5, s6, s7, s8, s9, s10 WHERE s1.a = s2.a AND s2.a = s3.a"
                + " AND s3.a = s4.a AND s4.a = s5.a AND s5.a = s6.a AND s6.a = s7.a AND s7.a = s8.a AND s8.a = s9.a"
                + " AND s9.a = s10.a";
        int code = run("estimate", "--dialect", "mysql", "-s", "optimizer_prune_level=0", clique + "; # a comment\n",
                "SELECT `c` FROM `sbtest1` WHERE id = 1");
        assertThat(code).as(err.toString()).isZero();
        List<JsonNode> lines = lines();
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0).get("search").asText()).isEqualTo("greedy");
        // MariaDB 10.11 searched this 10-clique for 2.0 s with pruning off
        assertThat(lines.get(0).get("searchSeconds").asDouble()).isGreaterThan(1);
        assertThat(lines.get(1).get("bypass").asBoolean()).isTrue();
    }

    @Test
    void aMysqlVariableTheModelDoesNotReadIsRefused() {
        assertThat(run("estimate", "--dialect", "mysql", "-s", "join_buffer_size=1", "select 1")).isNotZero();
        assertThat(err.toString()).contains("optimizer_prune_level");
    }
}
