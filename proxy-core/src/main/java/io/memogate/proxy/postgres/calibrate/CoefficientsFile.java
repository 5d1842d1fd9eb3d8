package io.memogate.proxy.postgres.calibrate;

import com.fasterxml.jackson.databind.JsonNode;
import io.memogate.estimator.postgres.MemoryCoefficients;
import io.memogate.proxy.calibrate.CoefficientsYaml;
import io.memogate.proxy.calibrate.InvalidCoefficientsException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * The coefficients file {@code memogate calibrate} writes and the configuration's
 * {@code estimator.coefficients} names: a YAML mapping of every one of {@link MemoryCoefficients#NAMES} to
 * bytes, after a comment header that says where they came from.
 * <pre>
 *   # Memogate planner-memory coefficients, fitted by `memogate calibrate`
 *   # server: PostgreSQL 18.0 ...
 *   fixedBytes: 51200
 *   bytesPerJoinPair: 2349.1
 *   ...
 * </pre>
 * Every name is required and no other key is allowed: a misspelt name would otherwise quietly leave
 * its default in force. The exceptions are the terms added after the first files were written
 * ({@link #ADDED_LATER}): a file fitted before them lacks them and keeps the model it was fitted for
 * (Cartesian pairs cost what other join pairs cost; blocks, tokens, parameterized index scans and first-rows
 * pairs holding a sub-problem nothing extra),
 * and the terms since replaced ({@link #RETIRED}), which are read and ignored: {@code bytesPerParameterization}
 * priced parameterized index scans per join relation, which the model now counts per pair, so its
 * value does not carry over; such a file estimates without the indexes until it is calibrated again.
 * Values are written exactly ({@link BigDecimal#valueOf(double)}), so a file read back gives the same
 * coefficients.
 */
public final class CoefficientsFile {

    /** Coefficients a file may leave out, each with the value that gives the model the file was fitted for. */
    static final Map<String, ToDoubleFunction<double[]>> ADDED_LATER = Map.ofEntries(
            Map.entry("bytesPerCartesianPair", values -> values[MemoryCoefficients.NAMES.indexOf("bytesPerJoinPair")]),
            Map.entry("bytesPerBlock", values -> 0),
            Map.entry("bytesPerToken", values -> 0),
            Map.entry("bytesPerParameterizedPair", values -> 0),
            Map.entry("bytesPerFastStartParameterizedPair", values -> 0),
            Map.entry("bytesPerFastStartSubProblemPair", values -> 0),
            // Set-operation branches were blocks, and lists of constants tokens: two a list element, three a
            // cell of a VALUES row (its parentheses and commas), on average, the row's share among them; the
            // other statements of a text and partitions were not counted.
            Map.entry("bytesPerSetOperationBranch", values -> values[MemoryCoefficients.NAMES.indexOf("bytesPerBlock")]),
            Map.entry("bytesPerListElement", values -> 2 * values[MemoryCoefficients.NAMES.indexOf("bytesPerToken")]),
            Map.entry("bytesPerValueRow", values -> 0),
            Map.entry("bytesPerValueCell", values -> 3 * values[MemoryCoefficients.NAMES.indexOf("bytesPerToken")]),
            Map.entry("bytesPerOtherStatement", values -> 0),
            Map.entry("bytesPerPartition", values -> 0),
            Map.entry("bytesPerPartitionwisePair", values -> 0),
            Map.entry("bytesPerCopiedJoinRelation", values -> 0),
            Map.entry("bytesPerPartitionwiseGrouping", values -> 0),
            // Pairs crossed by several clauses cost bytesPerExtraJoinClause per clause beyond the first alone.
            Map.entry("bytesPerCrossingSquare", values -> 0),
            // A join relation cost nothing beyond the pairs that make it.
            Map.entry("bytesPerJoinRelation", values -> 0));

    /** Coefficients of terms the model no longer has: accepted in a file, and ignored. */
    static final Set<String> RETIRED = Set.of("bytesPerParameterization", "bytesPerFastStartParameterization");

    private CoefficientsFile() {
    }

    /** @throws InvalidCoefficientsException naming the file and each problem */
    public static MemoryCoefficients read(Path file) {
        JsonNode root = CoefficientsYaml.mapping(file, String.join(", ", MemoryCoefficients.NAMES) + " to bytes");
        List<String> problems = new ArrayList<>();
        for (Iterator<String> keys = root.fieldNames(); keys.hasNext(); ) {
            String key = keys.next();
            if (!MemoryCoefficients.NAMES.contains(key) && !RETIRED.contains(key)) {
                problems.add("unknown key '" + key + "' (expected " + String.join(", ", MemoryCoefficients.NAMES) + ")");
            }
        }
        double[] values = new double[MemoryCoefficients.NAMES.size()];
        List<Integer> leftOut = new ArrayList<>();
        for (int j = 0; j < values.length; j++) {
            String name = MemoryCoefficients.NAMES.get(j);
            JsonNode value = root.get(name);
            if ((value == null || value.isNull()) && ADDED_LATER.containsKey(name)) {
                leftOut.add(j);
            } else if (value == null || value.isNull()) {
                problems.add(name + " is required");
            } else if (!value.isNumber() || !Double.isFinite(value.doubleValue()) || value.doubleValue() < 0) {
                problems.add(name + " must be a number of bytes >= 0, was '" + value.asText() + "'");
            } else {
                values[j] = value.doubleValue();
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidCoefficientsException(file, problems);
        }
        for (int j : leftOut) {
            values[j] = ADDED_LATER.get(MemoryCoefficients.NAMES.get(j)).applyAsDouble(values);
        }
        return MemoryCoefficients.of(values);
    }

    /** Writes {@code coefficients} with {@code header} as comment lines (without their "# "). */
    public static void write(Path file, MemoryCoefficients coefficients, List<String> header) throws IOException {
        Files.writeString(file, text(coefficients, header), StandardCharsets.UTF_8);
    }

    static String text(MemoryCoefficients coefficients, List<String> header) {
        return CoefficientsYaml.text(MemoryCoefficients.NAMES, coefficients.toArray(), header);
    }
}
