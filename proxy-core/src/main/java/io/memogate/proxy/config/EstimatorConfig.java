package io.memogate.proxy.config;

import io.memogate.estimator.mysql.MySqlCoefficients;
import io.memogate.estimator.postgres.MemoryCoefficients;
import io.memogate.estimator.sqlserver.SqlServerCoefficients;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * The estimator: the coefficients of its memory model, from the file {@code memogate calibrate} wrote
 * for this server ({@code estimator.coefficients}, relative to the configuration file's directory), or
 * the built-in ones fitted to PostgreSQL 17.5. The file is read when the configuration is, at start
 * and at each reload, so a reload after a new calibration takes the new coefficients.
 *
 * <p>A MySQL or MariaDB server's statements are estimated by the MySQL dialect, with the coefficients of the file
 * {@code memogate calibrate} wrote against such a server ({@code estimator.mysqlCoefficients}), or its built-in
 * ones fitted to MariaDB 10.11; read likewise at start and at each reload. A SQL Server's statements are estimated
 * by the T-SQL dialect, with the coefficients of {@code estimator.sqlserverCoefficients}, or built-in ones taken
 * from published showplans (not measured on a server of ours).
 *
 * @param coefficientsFile the file, absolute, if one is named
 * @param coefficients what it holds, or {@link MemoryCoefficients#DEFAULTS}
 * @param mysqlCoefficientsFile the MySQL dialect's file, absolute, if one is named
 * @param mysqlCoefficients what it holds, or {@link MySqlCoefficients#DEFAULTS}
 * @param sqlserverCoefficientsFile the T-SQL dialect's file, absolute, if one is named
 * @param sqlserverCoefficients what it holds, or {@link SqlServerCoefficients#DEFAULTS}
 */
public record EstimatorConfig(Optional<Path> coefficientsFile, MemoryCoefficients coefficients,
                              Optional<Path> mysqlCoefficientsFile, MySqlCoefficients mysqlCoefficients,
                              Optional<Path> sqlserverCoefficientsFile, SqlServerCoefficients sqlserverCoefficients) {

    /** What a file without an {@code estimator} section gets. */
    public static final EstimatorConfig DEFAULTS = new EstimatorConfig(Optional.empty(), MemoryCoefficients.DEFAULTS);

    public EstimatorConfig {
        Objects.requireNonNull(coefficientsFile, "coefficientsFile");
        Objects.requireNonNull(coefficients, "coefficients");
        Objects.requireNonNull(mysqlCoefficientsFile, "mysqlCoefficientsFile");
        Objects.requireNonNull(mysqlCoefficients, "mysqlCoefficients");
        Objects.requireNonNull(sqlserverCoefficientsFile, "sqlserverCoefficientsFile");
        Objects.requireNonNull(sqlserverCoefficients, "sqlserverCoefficients");
    }

    /** PostgreSQL's and MySQL's coefficients, and the T-SQL dialect's built-in ones. */
    public EstimatorConfig(Optional<Path> coefficientsFile, MemoryCoefficients coefficients,
                           Optional<Path> mysqlCoefficientsFile, MySqlCoefficients mysqlCoefficients) {
        this(coefficientsFile, coefficients, mysqlCoefficientsFile, mysqlCoefficients, Optional.empty(),
                SqlServerCoefficients.DEFAULTS);
    }

    /** PostgreSQL's coefficients, and the other dialects' built-in ones. */
    public EstimatorConfig(Optional<Path> coefficientsFile, MemoryCoefficients coefficients) {
        this(coefficientsFile, coefficients, Optional.empty(), MySqlCoefficients.DEFAULTS);
    }
}
