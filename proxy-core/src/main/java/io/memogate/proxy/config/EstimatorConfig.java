package io.memogate.proxy.config;

import io.memogate.estimator.postgres.MemoryCoefficients;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * The estimator: the coefficients of its memory model, from the file {@code memogate calibrate} wrote
 * for this server ({@code estimator.coefficients}, relative to the configuration file's directory), or
 * the built-in ones fitted to PostgreSQL 17.5. The file is read when the configuration is, at start
 * and at each reload, so a reload after a new calibration takes the new coefficients.
 *
 * @param coefficientsFile the file, absolute, if one is named
 * @param coefficients what it holds, or {@link MemoryCoefficients#DEFAULTS}
 */
public record EstimatorConfig(Optional<Path> coefficientsFile, MemoryCoefficients coefficients) {

    /** What a file without an {@code estimator} section gets. */
    public static final EstimatorConfig DEFAULTS = new EstimatorConfig(Optional.empty(), MemoryCoefficients.DEFAULTS);

    public EstimatorConfig {
        Objects.requireNonNull(coefficientsFile, "coefficientsFile");
        Objects.requireNonNull(coefficients, "coefficients");
    }
}
