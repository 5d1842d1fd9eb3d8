package io.memogate.proxy.postgres.calibrate;

import io.memogate.estimator.planner.MemoryTerms;
import java.util.Objects;

/**
 * One statement of a calibration corpus: what the estimator's model weighs for it, and the planner
 * memory PostgreSQL reported for it ({@code EXPLAIN (SUMMARY, MEMORY)}, "Planning: ... Memory: used").
 *
 * @param name where the statement came from ({@code star-12}, {@code tpch/q05.sql#1})
 * @param relations the estimator's relation count
 * @param memoPairs the estimator's join pairs (all searches)
 * @param terms the memory model's terms, independent of coefficients
 * @param measuredBytes planner memory used, in bytes, more than 0
 */
public record Measurement(String name, int relations, long memoPairs, MemoryTerms terms, long measuredBytes) {

    public Measurement {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(terms, "terms");
        if (measuredBytes <= 0) {
            throw new IllegalArgumentException("measuredBytes must be positive, was " + measuredBytes);
        }
    }
}
