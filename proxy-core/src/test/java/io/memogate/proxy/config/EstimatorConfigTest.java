package io.memogate.proxy.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.estimator.postgres.MemoryCoefficients;
import io.memogate.proxy.postgres.calibrate.CoefficientsFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code estimator.coefficients}: the file calibrate wrote, read with the configuration. */
class EstimatorConfigTest {

    private static final String BACKEND = "backends: [{name: main, host: localhost}]\n";
    private static final MemoryCoefficients FITTED = new MemoryCoefficients(30_000, 3_100.5, 9_000, 12_000, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    private final ConfigLoader loader = new ConfigLoader();

    @TempDir
    Path dir;

    @Test
    void readsTheFileRelativeToTheConfigurationsDirectory() throws Exception {
        Files.createDirectories(dir.resolve("conf"));
        CoefficientsFile.write(dir.resolve("conf/fitted.yaml"), FITTED, List.of("fitted"));
        Path config = dir.resolve("conf/memogate.yaml");
        Files.writeString(config, BACKEND + "estimator:\n  coefficients: fitted.yaml\n");

        EstimatorConfig estimator = loader.load(config).estimator();

        assertThat(estimator.coefficients()).isEqualTo(FITTED);
        assertThat(estimator.coefficientsFile()).contains(dir.resolve("conf/fitted.yaml"));
        assertThat(ConfigSettings.of(loader.load(config))).contains(new ConfigSettings.Setting("estimator.coefficients",
                dir.resolve("conf/fitted.yaml") + " (30000, 3100.5, 9000, 12000, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)", ConfigSettings.Applies.LIVE));
    }

    @Test
    void withoutTheSectionTheBuiltInCoefficients() {
        assertThat(loader.parse(BACKEND, dir).estimator()).isEqualTo(EstimatorConfig.DEFAULTS);
        assertThat(loader.parse(BACKEND + "estimator: {}\n", dir).estimator()).isEqualTo(EstimatorConfig.DEFAULTS);
        assertThat(EstimatorConfig.DEFAULTS.coefficients()).isEqualTo(MemoryCoefficients.DEFAULTS);
    }

    @Test
    void aMissingFileIsAProblemOfTheFieldWithTheOthers() {
        assertThat(problems(BACKEND + "limits: {connectTimeout: 0s}\nestimator:\n  coefficients: nowhere.yaml\n"))
                .containsExactly(
                        "estimator.coefficients: " + dir.resolve("nowhere.yaml") + ": file not found",
                        "limits.connectTimeout must be between 1ms and 1h, was 0s");
    }

    @Test
    void aFileThatIsNotACoefficientsFileNamesEachProblem() throws Exception {
        Files.writeString(dir.resolve("bad.yaml"), "fixedBytes: 1\nbytesPerJoinPair: -5\nbytesPerPair: 2\n");

        assertThat(problems(BACKEND + "estimator: {coefficients: bad.yaml}\n")).containsExactly(
                "estimator.coefficients: " + dir.resolve("bad.yaml") + ": unknown key 'bytesPerPair' (expected "
                        + "fixedBytes, bytesPerJoinPair, bytesPerFastStartJoinPair, bytesPerRelation, bytesPerGeqoGene, "
                        + "bytesPerExtraJoinClause, bytesPerCartesianPair, bytesPerBlock, bytesPerToken, bytesPerParameterizedPair, "
                        + "bytesPerFastStartParameterizedPair, bytesPerFastStartSubProblemPair, bytesPerSetOperationBranch, "
                        + "bytesPerListElement, bytesPerValueRow, bytesPerValueCell, bytesPerOtherStatement, "
                        + "bytesPerPartition, bytesPerPartitionwisePair, bytesPerCopiedJoinRelation, "
                        + "bytesPerPartitionwiseGrouping, bytesPerCrossingSquare, bytesPerJoinRelation); "
                        + "bytesPerJoinPair must be a number of bytes >= 0, was '-5'; bytesPerFastStartJoinPair is "
                        + "required; bytesPerRelation is required; bytesPerGeqoGene is required; bytesPerExtraJoinClause is required");
    }

    @Test
    void unknownKeysInTheSectionAreNamed() {
        assertThat(problems(BACKEND + "estimator: {coefficient: x.yaml}\n"))
                .singleElement().asString().startsWith("estimator: unknown field 'coefficient'");
    }

    private List<String> problems(String yaml) {
        try {
            return List.of("no problem: " + loader.parse(yaml, dir));
        } catch (ConfigException e) {
            return e.problems();
        }
    }

    @Test
    void aConfigurationBuiltInCodeKeepsTheDefaultsUnlessGivenOthers() {
        MemogateConfig config = MemogateConfig.of(BackendConfig.of("main", "localhost", 5432));
        assertThat(config.estimator()).isEqualTo(EstimatorConfig.DEFAULTS);
        EstimatorConfig fitted = new EstimatorConfig(Optional.of(dir.resolve("f.yaml")), FITTED);
        assertThat(config.withEstimator(fitted).estimator()).isEqualTo(fitted);
        assertThatThrownBy(() -> new EstimatorConfig(Optional.empty(), null)).isInstanceOf(NullPointerException.class);
    }
}
