package io.memogate.proxy.metrics;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One answer to "is the proxy fit to serve?": UP or DOWN, and details a component adds for the operator
 * ({@code "broker": "LIVE"}). {@code GET /health} renders it as one flat JSON object,
 * {@code {"status":"UP","broker":"LIVE"}}, and answers 200 for UP and 503 for DOWN, which is what load
 * balancers and orchestrators act on.
 *
 * @param up whether this part is fit to serve
 * @param details extra fields of the JSON object, in order; "status" is reserved for {@code up}
 */
public record Health(boolean up, Map<String, String> details) {

    public Health {
        Objects.requireNonNull(details, "details");
        details.forEach((key, value) -> {
            Objects.requireNonNull(key, "details key");
            Objects.requireNonNull(value, () -> "details[" + key + "]");
        });
        if (details.containsKey("status")) {
            throw new IllegalArgumentException("details must not use the key 'status': it holds UP or DOWN");
        }
        details = Collections.unmodifiableMap(new LinkedHashMap<>(details));
    }

    public static final Health UP = new Health(true, Map.of());
    public static final Health DOWN = new Health(false, Map.of());

    /** This health with one more detail (replacing an earlier one of the same key). */
    public Health with(String key, String value) {
        Map<String, String> more = new LinkedHashMap<>(details);
        more.put(key, value);
        return new Health(up, more);
    }

    /** "UP" or "DOWN", the value of the JSON's status field. */
    public String status() {
        return up ? "UP" : "DOWN";
    }
}
