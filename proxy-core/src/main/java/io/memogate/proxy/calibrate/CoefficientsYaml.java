package io.memogate.proxy.calibrate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.memogate.proxy.files.TextFiles;
import io.memogate.proxy.files.UnreadableFileException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/** A coefficients file's YAML, whichever server's coefficients it holds: read as a mapping, written exactly. */
public final class CoefficientsYaml {

    private static final YAMLMapper MAPPER = YAMLMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private CoefficientsYaml() {
    }

    /**
     * The YAML mapping {@code file} holds (duplicate keys refused), for a coefficients file of any dialect.
     *
     * @param expected what the mapping should map, for the message when it is not one
     * @throws InvalidCoefficientsException when it cannot be read, is not YAML or not a mapping
     */
    public static JsonNode mapping(Path file, String expected) {
        String text;
        try {
            text = TextFiles.read(file);
        } catch (UnreadableFileException e) {
            throw new InvalidCoefficientsException(file, List.of(e.why()));
        }
        JsonNode root;
        try {
            root = MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new InvalidCoefficientsException(file, List.of("not YAML: " + e.getOriginalMessage()));
        }
        if (root == null || !root.isObject()) {
            throw new InvalidCoefficientsException(file, List.of("must be a mapping of " + expected));
        }
        return root;
    }

    /**
     * The values of every one of {@code names} in {@code file}'s mapping, in that order: each required, a number at
     * least {@code least[j]}, and no other key allowed, so that a misspelt one cannot quietly leave a default in
     * force.
     *
     * @throws InvalidCoefficientsException naming the file and each problem
     */
    public static double[] values(Path file, List<String> names, double[] least) {
        JsonNode root = mapping(file, String.join(", ", names));
        List<String> problems = new ArrayList<>();
        for (Iterator<String> keys = root.fieldNames(); keys.hasNext(); ) {
            String key = keys.next();
            if (!names.contains(key)) {
                problems.add("unknown key '" + key + "' (expected " + String.join(", ", names) + ")");
            }
        }
        double[] values = new double[names.size()];
        for (int j = 0; j < values.length; j++) {
            JsonNode value = root.get(names.get(j));
            if (value == null || value.isNull()) {
                problems.add(names.get(j) + " is required");
            } else if (!value.isNumber() || !Double.isFinite(value.doubleValue()) || value.doubleValue() < least[j]) {
                problems.add(names.get(j) + " must be a number >= " + BigDecimal.valueOf(least[j]).stripTrailingZeros()
                        .toPlainString() + ", was '" + value.asText() + "'");
            } else {
                values[j] = value.doubleValue();
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidCoefficientsException(file, problems);
        }
        return values;
    }

    /**
     * A coefficients file's text, of any dialect: {@code header} as comment lines, then each name and its value,
     * written exactly ({@link BigDecimal#valueOf(double)}) so that the file read back gives the same value.
     */
    public static String text(List<String> names, double[] values, List<String> header) {
        StringBuilder out = new StringBuilder();
        for (String line : header) {
            out.append(line.isEmpty() ? "#" : "# " + line).append('\n');
        }
        for (int j = 0; j < values.length; j++) {
            out.append(names.get(j)).append(": ")
                    .append(BigDecimal.valueOf(values[j]).stripTrailingZeros().toPlainString()).append('\n');
        }
        return out.toString();
    }
}
