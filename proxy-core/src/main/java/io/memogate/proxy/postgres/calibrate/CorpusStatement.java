package io.memogate.proxy.postgres.calibrate;

import java.util.Objects;

/**
 * One statement to measure.
 *
 * @param name where it came from: a synthetic shape ({@code clique-8-limit}) or file and position
 *     ({@code tpch/q05.sql#2})
 * @param sql its text, without the terminating semicolon
 */
public record CorpusStatement(String name, String sql) {

    public CorpusStatement {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(sql, "sql");
    }
}
