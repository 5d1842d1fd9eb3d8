package io.memogate.proxy.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.memogate.estimator.CompileEstimate;
import io.memogate.estimator.planner.MemoryTerms;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One estimate as the JSON line {@code bin/memogate estimate} prints, and the console's EXPLAIN ADMISSION and
 * SHOW STATEMENTS show: one format wherever an estimate is asked for, each of its parts, so that a reader (the
 * testkit's container) can rebuild the estimate from it.
 */
public final class EstimateJson {

    private static final ObjectMapper JSON = new ObjectMapper();

    private EstimateJson() {
    }

    public static String of(CompileEstimate e) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("fingerprint", e.fingerprint());
        line.put("fingerprintHash", String.format("%016x", e.fingerprintHash()));
        line.put("relations", e.relations());
        line.put("blocks", e.blocks());
        line.put("memoPairs", e.memoPairs());
        line.put("estimatedBytes", e.estimatedBytes());
        line.put("parser", e.parser().name().toLowerCase(Locale.ROOT));
        line.put("bypass", e.bypass());
        line.put("reason", e.reason());
        line.put("largestProblem", e.largestProblem());
        line.put("search", e.search().name().toLowerCase(Locale.ROOT));
        line.put("capped", e.capped());
        line.put("statements", e.statements());
        line.put("plannedWhileRunning", e.plannedWhileRunning());
        if (e.searchSeconds() > 0) {
            line.put("searchSeconds", e.searchSeconds()); // where the dialect models the search's time
        }
        line.put("terms", terms(e.terms()));
        try {
            return JSON.writeValueAsString(line);
        } catch (JsonProcessingException e1) {
            // Strings, numbers and booleans always serialize: a failure here is a bug, not an input problem.
            throw new UncheckedIOException("writing an estimate as JSON", e1);
        }
    }

    /**
     * What the estimate's bytes were made of ({@link MemoryTerms}, each times its coefficient): counts,
     * whole where they are (first-rows shares and extrapolations are not), so an operator can see which
     * term an estimate comes from.
     */
    private static Map<String, Number> terms(MemoryTerms terms) {
        Map<String, Number> out = new LinkedHashMap<>();
        double[] values = terms.toArray();
        for (int j = 0; j < values.length; j++) {
            double v = values[j];
            out.put(MemoryTerms.NAMES.get(j), v == Math.rint(v) && Math.abs(v) < 1e15 ? (Number) (long) v : v);
        }
        return out;
    }
}
