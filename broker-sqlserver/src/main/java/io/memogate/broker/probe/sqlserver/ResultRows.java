package io.memogate.broker.probe.sqlserver;

import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * One result set of a dynamic management view as text, the same whether read from a server ({@link #read}) or
 * from a hand-written file in a test: the probe's computation reads only these, so it is tested on such result
 * sets without a server. Column names are lower case; a SQL NULL is a Java null.
 *
 * @param view what was read, for messages ("sys.dm_os_memory_clerks")
 * @param rows each row's values by column name
 */
record ResultRows(String view, List<Map<String, String>> rows) {

    ResultRows {
        Objects.requireNonNull(view, "view");
        rows = rows.stream().map(row -> Collections.unmodifiableMap(new HashMap<>(row))).toList();
    }

    /** Every row of {@code result}, each value as the driver renders it as text. */
    static ResultRows read(String view, ResultSet result) throws SQLException {
        ResultSetMetaData meta = result.getMetaData();
        List<Map<String, String>> rows = new ArrayList<>();
        while (result.next()) {
            Map<String, String> row = new HashMap<>();
            for (int column = 1; column <= meta.getColumnCount(); column++) {
                row.put(meta.getColumnLabel(column).toLowerCase(Locale.ROOT), result.getString(column));
            }
            rows.add(row);
        }
        return new ResultRows(view, rows);
    }

    /** The only row, for views and queries that return one (sys.dm_os_sys_info). */
    Map<String, String> single() {
        if (rows.size() != 1) {
            throw new IllegalStateException(view + " returned " + rows.size() + " rows, expected one");
        }
        return rows.getFirst();
    }

    /** The column's text, trimmed (the views' nchar columns come padded with spaces); null for NULL. */
    String text(Map<String, String> row, String column) {
        if (!row.containsKey(column)) {
            throw new IllegalStateException(view + " has no column " + column + ", only " + row.keySet());
        }
        String value = row.get(column);
        return value == null ? null : value.strip();
    }

    /** The column as a whole number; NULL or text that is not a number is a failed read. */
    long number(Map<String, String> row, String column) {
        OptionalLong value = optionalNumber(row, column);
        if (value.isEmpty()) {
            throw new IllegalStateException(view + "." + column + " is NULL");
        }
        return value.getAsLong();
    }

    /** The column as a whole number, empty for NULL. */
    OptionalLong optionalNumber(Map<String, String> row, String column) {
        String value = text(row, column);
        if (value == null) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(value));
        } catch (NumberFormatException e) {
            throw new IllegalStateException(view + "." + column + " is not a whole number: '" + value + "'", e);
        }
    }
}
