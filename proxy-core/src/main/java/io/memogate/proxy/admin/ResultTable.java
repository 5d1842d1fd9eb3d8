package io.memogate.proxy.admin;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A console command's result set: column names and rows of text, the way every SQL client can read it
 * (psql prints it, JDBC reads it with getString or getLong). Values are text as the proxy writes them;
 * null is SQL NULL, for a value that does not apply (LARGE has no fraction, a session has no server yet).
 */
public record ResultTable(List<String> columns, List<List<String>> rows) {

    public ResultTable {
        columns = List.copyOf(columns);
        List<List<String>> copied = new ArrayList<>(rows.size());
        for (List<String> row : rows) {
            if (row.size() != columns.size()) {
                throw new IllegalArgumentException("a row of " + row.size() + " values for " + columns.size()
                        + " columns " + columns);
            }
            copied.add(Collections.unmodifiableList(new ArrayList<>(row))); // keeps nulls, unlike List.copyOf
        }
        rows = Collections.unmodifiableList(copied);
    }

    public static Builder of(String... columns) {
        return new Builder(List.of(columns));
    }

    /** Rows added one at a time; each value is written with {@link String#valueOf}, null kept as NULL. */
    public static final class Builder {
        private final List<String> columns;
        private final List<List<String>> rows = new ArrayList<>();

        private Builder(List<String> columns) {
            this.columns = columns;
        }

        public Builder row(Object... values) {
            List<String> row = new ArrayList<>(values.length);
            for (Object value : values) {
                row.add(value == null ? null : String.valueOf(value));
            }
            rows.add(row);
            return this;
        }

        public ResultTable build() {
            return new ResultTable(columns, rows);
        }
    }

    /**
     * In a name/value table (SHOW STATS, SHOW BROKER), the value of the first row named {@code key}, as a test
     * would look it up; the columns {@code name} and {@code value} where the table has them (per-server tables
     * put {@code server} first), else the first and the second.
     */
    public String value(String key) {
        int name = Math.max(0, columns.indexOf("name"));
        int value = columns.contains("value") ? columns.indexOf("value") : name + 1;
        return rows.stream().filter(row -> Objects.equals(row.get(name), key)).findFirst()
                .map(row -> row.get(value)).orElse(null);
    }
}
