package io.memogate.proxy.calibrate.mysql;

import io.memogate.estimator.mysql.MySqlCoefficients;
import io.memogate.proxy.calibrate.CoefficientsYaml;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The MySQL/MariaDB coefficients file {@code memogate calibrate --url jdbc:mariadb://...} writes and the
 * configuration's {@code estimator.mysqlCoefficients} names: a YAML mapping of every one of {@link #NAMES}
 * (bytes, and seconds for the two times) after a comment header that says where they came from. Every name is
 * required and no other key is allowed, so that a misspelt one cannot quietly leave its default in force.
 */
public final class MySqlCoefficientsFile {

    /** The keys, in the order of {@link MySqlCoefficients}' components. */
    public static final List<String> NAMES = List.of("bytesPerToken", "bytesPerTable", "bytesPerLinkedPair",
            "secondsPerPlan", "secondsPerPrunedCandidate");

    private MySqlCoefficientsFile() {
    }

    /** @throws io.memogate.proxy.calibrate.InvalidCoefficientsException naming the file and each problem */
    public static MySqlCoefficients read(Path file) {
        double[] v = CoefficientsYaml.values(file, NAMES, new double[NAMES.size()]);
        return new MySqlCoefficients(v[0], v[1], v[2], v[3], v[4]);
    }

    /** Writes {@code coefficients} with {@code header} as comment lines (without their "# "). */
    public static void write(Path file, MySqlCoefficients coefficients, List<String> header) throws IOException {
        Files.writeString(file, text(coefficients, header), StandardCharsets.UTF_8);
    }

    static String text(MySqlCoefficients c, List<String> header) {
        return CoefficientsYaml.text(NAMES, new double[] {c.bytesPerToken(), c.bytesPerTable(), c.bytesPerLinkedPair(),
                c.secondsPerPlan(), c.secondsPerPrunedCandidate()}, header);
    }
}
