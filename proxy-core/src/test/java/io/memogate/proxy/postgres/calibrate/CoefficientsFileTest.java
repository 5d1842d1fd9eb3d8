package io.memogate.proxy.postgres.calibrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.estimator.postgres.MemoryCoefficients;
import io.memogate.proxy.calibrate.InvalidCoefficientsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CoefficientsFileTest {

    @TempDir
    Path dir;

    @Test
    void readsBackExactlyWhatItWrote() throws Exception {
        MemoryCoefficients fitted = new MemoryCoefficients(51_234.56789, 2_349.0123456789, 24_999.5, 0, 16.25, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        Path file = dir.resolve("c.yaml");

        CoefficientsFile.write(file, fitted, List.of("server: PostgreSQL 18.0", "", "date: today"));

        assertThat(CoefficientsFile.read(file)).isEqualTo(fitted);
        assertThat(Files.readString(file)).startsWith("# server: PostgreSQL 18.0\n#\n# date: today\nfixedBytes: ")
                .contains("\nbytesPerRelation: 0\n");
    }

    @Test
    void namesEveryProblem() throws Exception {
        Path file = dir.resolve("bad.yaml");
        Files.writeString(file, """
                fixedBytes: -1
                bytesPerJoinPair: lots
                bytesPerFastStartJoinPairs: 25600
                bytesPerRelation: 0
                bytesPerGeqoGene: 16
                """);

        assertThatThrownBy(() -> CoefficientsFile.read(file))
                .isInstanceOf(InvalidCoefficientsException.class)
                .satisfies(e -> assertThat(((InvalidCoefficientsException) e).problems()).containsExactly(
                        "unknown key 'bytesPerFastStartJoinPairs' (expected fixedBytes, bytesPerJoinPair, "
                                + "bytesPerFastStartJoinPair, bytesPerRelation, bytesPerGeqoGene, bytesPerExtraJoinClause, "
                                + "bytesPerCartesianPair, bytesPerBlock, bytesPerToken, bytesPerParameterizedPair, "
                                + "bytesPerFastStartParameterizedPair, bytesPerFastStartSubProblemPair, "
                                + "bytesPerSetOperationBranch, bytesPerListElement, bytesPerValueRow, bytesPerValueCell, "
                                + "bytesPerOtherStatement, bytesPerPartition, bytesPerPartitionwisePair, "
                                + "bytesPerCopiedJoinRelation, bytesPerPartitionwiseGrouping, bytesPerCrossingSquare, bytesPerJoinRelation)",
                        "fixedBytes must be a number of bytes >= 0, was '-1'",
                        "bytesPerJoinPair must be a number of bytes >= 0, was 'lots'",
                        "bytesPerFastStartJoinPair is required", "bytesPerExtraJoinClause is required"))
                .hasMessageStartingWith(file + ": unknown key");
    }

    /** A file calibrated before the Cartesian, block and token terms existed keeps the model it was fitted for. */
    @Test
    void aFileWithoutTheLaterTermsKeepsItsModel() throws Exception {
        Path file = dir.resolve("old.yaml");
        Files.writeString(file, """
                fixedBytes: 50000
                bytesPerJoinPair: 2500
                bytesPerFastStartJoinPair: 9000
                bytesPerRelation: 7000
                bytesPerGeqoGene: 16
                bytesPerExtraJoinClause: 2000
                """);

        assertThat(CoefficientsFile.read(file))
                .isEqualTo(new MemoryCoefficients(50_000, 2_500, 9_000, 7_000, 16, 2_000, 2_500, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    }

    /**
     * A file from when parameterized index scans were priced per join relation: those values do not fit the
     * per-pair count, so they are ignored and the file estimates without the indexes until recalibrated.
     */
    @Test
    void aFileWithTheRetiredPerRelationParameterizationsIgnoresThem() throws Exception {
        Path file = dir.resolve("per-relation.yaml");
        Files.writeString(file, """
                fixedBytes: 8192
                bytesPerJoinPair: 3276.8
                bytesPerFastStartJoinPair: 12288
                bytesPerRelation: 10240
                bytesPerGeqoGene: 16
                bytesPerExtraJoinClause: 2355.2
                bytesPerCartesianPair: 409.6
                bytesPerBlock: 24576
                bytesPerToken: 400
                bytesPerParameterization: 2969.6
                bytesPerFastStartParameterization: 16384
                """);

        assertThat(CoefficientsFile.read(file)).isEqualTo(
                new MemoryCoefficients(8192, 3276.8, 12288, 10240, 16, 2355.2, 409.6, 24576, 400, 0, 0, 0, 24576, 800, 0,
                        1200, 0, 0, 0, 0, 0, 0, 0));
    }

    @Test
    void aMissingFileOrANonMappingIsSaidSo() throws Exception {
        assertThatThrownBy(() -> CoefficientsFile.read(dir.resolve("none.yaml")))
                .hasMessage(dir.resolve("none.yaml") + ": file not found");
        Path list = dir.resolve("list.yaml");
        Files.writeString(list, "- 1\n- 2\n");
        assertThatThrownBy(() -> CoefficientsFile.read(list)).hasMessageContaining("must be a mapping of fixedBytes");
    }
}
