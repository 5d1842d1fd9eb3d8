package io.memogate.proxy.calibrate.mysql;

import com.fasterxml.jackson.databind.JsonNode;
import io.memogate.estimator.mysql.MySqlCoefficients;
import io.memogate.proxy.calibrate.CoefficientsYaml;
import io.memogate.proxy.calibrate.InvalidCoefficientsException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The MySQL/MariaDB coefficients file {@code memogate calibrate --url jdbc:mariadb://...} writes and the
 * configuration's {@code estimator.mysqlCoefficients} names: a YAML mapping of every one of {@link #NAMES}
 * (bytes, and seconds for the times; the three of the statistics' replayed search, and the memory of a search's
 * squares and equality classes, may be left out) after a comment header that says where they came from. Every other name is required and no other key is allowed, so
 * that a misspelt one cannot quietly leave its default in force. A file that gives the time per priced extension
 * but not per key lookup was fitted before the two were told apart: its time per extension holds the lookups'
 * share, so the lookups then cost nothing more. Likewise a file without the memory of a search's squares and
 * equality classes was fitted before those were modelled, and they cost nothing under it.
 */
public final class MySqlCoefficientsFile {

    /** The keys, in the order of {@link MySqlCoefficients}' components. */
    public static final List<String> NAMES = List.of("bytesPerToken", "bytesPerTable", "bytesPerLinkedPair",
            "secondsPerPlan", "secondsPerPrunedCandidate", "secondsPerPricedExtension", "secondsPerSearchedTable",
            "secondsPerKeyLookup", "bytesPerTableSquared", "bytesPerEqualityClassCube");
    /** Keys a file may leave out, keeping the built-in value: the statistics' terms, which older files lack. */
    private static final List<String> OPTIONAL = List.of("secondsPerPricedExtension", "secondsPerSearchedTable",
            "secondsPerKeyLookup");
    /** Memory terms older files lack, whose other memory coefficients were fitted without them: they cost nothing. */
    private static final List<String> ABSORBED = List.of("bytesPerTableSquared", "bytesPerEqualityClassCube");

    private MySqlCoefficientsFile() {
    }

    /** @throws InvalidCoefficientsException naming the file and each problem */
    public static MySqlCoefficients read(Path file) {
        JsonNode root = CoefficientsYaml.mapping(file, String.join(", ", NAMES));
        List<String> problems = new ArrayList<>();
        for (Iterator<String> keys = root.fieldNames(); keys.hasNext(); ) {
            String key = keys.next();
            if (!NAMES.contains(key)) {
                problems.add("unknown key '" + key + "' (expected " + String.join(", ", NAMES) + ")");
            }
        }
        double[] values = new double[NAMES.size()];
        for (int j = 0; j < values.length; j++) {
            JsonNode value = root.get(NAMES.get(j));
            if ((value == null || value.isNull()) && NAMES.get(j).equals("secondsPerKeyLookup")
                    && root.hasNonNull("secondsPerPricedExtension")) {
                values[j] = 0;
            } else if ((value == null || value.isNull()) && ABSORBED.contains(NAMES.get(j))) {
                values[j] = 0;
            } else if ((value == null || value.isNull()) && OPTIONAL.contains(NAMES.get(j))) {
                values[j] = defaults()[j];
            } else if (value == null || value.isNull()) {
                problems.add(NAMES.get(j) + " is required");
            } else if (!value.isNumber() || !Double.isFinite(value.doubleValue()) || value.doubleValue() < 0) {
                problems.add(NAMES.get(j) + " must be a number >= 0, was '" + value.asText() + "'");
            } else {
                values[j] = value.doubleValue();
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidCoefficientsException(file, problems);
        }
        return new MySqlCoefficients(values[0], values[1], values[2], values[3], values[4], values[5], values[6],
                values[7], values[8], values[9]);
    }

    private static double[] defaults() {
        return values(MySqlCoefficients.DEFAULTS);
    }

    private static double[] values(MySqlCoefficients c) {
        return new double[] {c.bytesPerToken(), c.bytesPerTable(), c.bytesPerLinkedPair(), c.secondsPerPlan(),
                c.secondsPerPrunedCandidate(), c.secondsPerPricedExtension(), c.secondsPerSearchedTable(),
                c.secondsPerKeyLookup(), c.bytesPerTableSquared(), c.bytesPerEqualityClassCube()};
    }

    /** Writes {@code coefficients} with {@code header} as comment lines (without their "# "). */
    public static void write(Path file, MySqlCoefficients coefficients, List<String> header) throws IOException {
        Files.writeString(file, text(coefficients, header), StandardCharsets.UTF_8);
    }

    static String text(MySqlCoefficients c, List<String> header) {
        return CoefficientsYaml.text(NAMES, values(c), header);
    }
}
