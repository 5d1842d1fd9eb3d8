package io.memogate.proxy.calibrate.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.estimator.mysql.MySqlCoefficients;
import io.memogate.proxy.calibrate.InvalidCoefficientsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MySqlCoefficientsFileTest {

    @TempDir
    Path dir;

    @Test
    void readsBackExactlyWhatItWrote() throws Exception {
        MySqlCoefficients fitted = new MySqlCoefficients(146.45533000487086, 5875.0, 2271.5, 6.069e-7, 5.15e-5);
        Path file = dir.resolve("c.yaml");

        MySqlCoefficientsFile.write(file, fitted, List.of("fitted here", ""));

        assertThat(Files.readString(file)).startsWith("# fitted here\n#\nbytesPerToken: 146.45533000487086\n");
        assertThat(MySqlCoefficientsFile.read(file)).isEqualTo(fitted);
    }

    @Test
    void aFileFittedBeforeKeyLookupsWereToldApartKeepsItsTimePerExtensionWhole() throws Exception {
        Path file = dir.resolve("older.yaml");
        Files.writeString(file, "bytesPerToken: 150\nbytesPerTable: 7300\nbytesPerLinkedPair: 3400\n"
                + "secondsPerPlan: 2.0e-7\nsecondsPerPrunedCandidate: 2.0e-5\n"
                + "secondsPerPricedExtension: 1.8e-7\nsecondsPerSearchedTable: 3.6e-5\n");

        MySqlCoefficients read = MySqlCoefficientsFile.read(file);

        assertThat(read.secondsPerPricedExtension()).isEqualTo(1.8e-7);
        assertThat(read.secondsPerKeyLookup()).isZero();
    }

    @Test
    void aGraphOnlyFileTakesTheBuiltInTimesOfReplayedSearchesAndKeepsItsMemoryAsItWas() throws Exception {
        Path file = dir.resolve("graph-only.yaml");
        Files.writeString(file, "bytesPerToken: 150\nbytesPerTable: 7300\nbytesPerLinkedPair: 3400\n"
                + "secondsPerPlan: 2.0e-7\nsecondsPerPrunedCandidate: 2.0e-5\n");

        MySqlCoefficients read = MySqlCoefficientsFile.read(file);

        assertThat(read.secondsPerPricedExtension()).isEqualTo(MySqlCoefficients.DEFAULTS.secondsPerPricedExtension());
        assertThat(read.secondsPerKeyLookup()).isEqualTo(MySqlCoefficients.DEFAULTS.secondsPerKeyLookup());
        // its tables and linked pairs were fitted to hold what the square and the cube now do
        assertThat(read.bytesPerTableSquared()).isZero();
        assertThat(read.bytesPerEqualityClassCube()).isZero();
        assertThat(read.bytesPerLinkedPair()).isEqualTo(3400);
    }

    @Test
    void namesEveryProblem() throws Exception {
        Path file = dir.resolve("bad.yaml");
        Files.writeString(file, "bytesPerToken: 150\nbytesPerTabel: 7300\nbytesPerLinkedPair: -1\n"
                + "secondsPerPlan: 2.0e-7\nsecondsPerPrunedCandidate: fast\n");

        assertThatThrownBy(() -> MySqlCoefficientsFile.read(file)).isInstanceOf(InvalidCoefficientsException.class)
                .hasMessageContaining("unknown key 'bytesPerTabel'")
                .hasMessageContaining("bytesPerTable is required")
                .hasMessageContaining("bytesPerLinkedPair must be a number >= 0, was '-1'")
                .hasMessageContaining("secondsPerPrunedCandidate must be a number >= 0, was 'fast'");
    }

    @Test
    void aPostgresqlFileIsNotOne() throws Exception {
        Path file = dir.resolve("pg.yaml");
        Files.writeString(file, "- fixedBytes\n");

        assertThatThrownBy(() -> MySqlCoefficientsFile.read(file)).hasMessageContaining("must be a mapping of");
    }
}
