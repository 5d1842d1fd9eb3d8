package io.memogate.estimator;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The rows of data/pg17-planner-memory-synthetic.tsv (a copy of the measurements behind docs/DESIGN.md,
 * "Why it matters"): PostgreSQL 17.5's planner memory for synthetic joins of each shape.
 */
public final class PlannerMemoryMeasurements {

    /** One measured statement: {@code n} tables joined in {@code shape}. */
    public record Row(String shape, int n, long ccpPairs, long plannerUsedKb) {
    }

    private PlannerMemoryMeasurements() {
    }

    public static List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(Objects.requireNonNull(
                PlannerMemoryMeasurements.class.getResourceAsStream("/data/pg17-planner-memory-synthetic.tsv")),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (!line.startsWith("#") && !line.startsWith("shape\t") && !line.isBlank()) {
                    String[] f = line.split("\t");
                    rows.add(new Row(f[0], Integer.parseInt(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3])));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return rows;
    }
}
