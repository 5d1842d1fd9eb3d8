package io.memogate.proxy.calibrate.sqlserver;

import io.memogate.estimator.sqlserver.SqlServerCoefficients;
import io.memogate.proxy.calibrate.CoefficientsYaml;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The SQL Server coefficients file the configuration's {@code estimator.sqlserverCoefficients} names, and
 * {@code memogate calibrate --url jdbc:sqlserver://...} writes: a YAML mapping of every one of {@link #NAMES}
 * (bytes, and the budget in join alternatives) after a comment header that says where they came from. Every name
 * is required and no other key is allowed, so that a misspelt one cannot quietly leave its default in force.
 */
public final class SqlServerCoefficientsFile {

    /** The keys, in the order of {@link SqlServerCoefficients}' components. */
    public static final List<String> NAMES = List.of("fixedBytes", "bytesPerRelation", "bytesPerExploredPair",
            "exploredPairBudget", "bytesPerToken", "bytesPerListElement", "bytesPerBlock", "bytesPerOtherStatement");

    private SqlServerCoefficientsFile() {
    }

    /** @throws io.memogate.proxy.calibrate.InvalidCoefficientsException naming the file and each problem */
    public static SqlServerCoefficients read(Path file) {
        double[] least = new double[NAMES.size()];
        least[NAMES.indexOf("exploredPairBudget")] = 1;
        double[] v = CoefficientsYaml.values(file, NAMES, least);
        return new SqlServerCoefficients(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
    }

    /** Writes {@code coefficients} with {@code header} as comment lines (without their "# "). */
    public static void write(Path file, SqlServerCoefficients coefficients, List<String> header) throws IOException {
        Files.writeString(file, text(coefficients, header), StandardCharsets.UTF_8);
    }

    static String text(SqlServerCoefficients c, List<String> header) {
        return CoefficientsYaml.text(NAMES, new double[] {c.fixedBytes(), c.bytesPerRelation(),
                c.bytesPerExploredPair(),
                c.exploredPairBudget(), c.bytesPerToken(), c.bytesPerListElement(), c.bytesPerBlock(),
                c.bytesPerOtherStatement()}, header);
    }
}
