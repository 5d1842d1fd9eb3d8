package io.memogate.bench.accuracy;

import io.trino.tpcds.Results;
import io.trino.tpcds.Session;
import io.trino.tpcds.Table;
import io.trino.tpcds.column.Column;
import io.trino.tpcds.column.ColumnType;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * TPC-DS's 24 tables with dsdgen's data at a small scale factor (trino's port of dsdgen), each table cut
 * at {@link #MAX_ROWS} rows, the dimensions' surrogate keys as primary keys, analyzed.
 */
final class TpcdsDatabase {

    static final double SCALE = 0.01;
    /** customer_demographics alone has 1.9 million rows at any scale; statistics need far fewer. */
    static final int MAX_ROWS = 100_000;

    private TpcdsDatabase() {
    }

    static void load(Connection connection) throws SQLException {
        Session session = Session.getDefaultSession().withScale(SCALE);
        try (Statement statement = connection.createStatement()) {
            for (Table table : Table.getBaseTables()) {
                statement.execute(createTable(table));
            }
            for (Table table : Table.getBaseTables()) {
                if (!table.isChild()) {
                    copy(connection, table, session);
                }
            }
            for (Table table : Table.getBaseTables()) {
                if (isDimension(table)) {
                    statement.execute("ALTER TABLE " + table.getName() + " ADD PRIMARY KEY ("
                            + table.getColumns()[0].getName() + ")");
                }
            }
            statement.execute("ANALYZE");
        }
    }

    /** Dimensions start with their surrogate key; facts (sales, returns, inventory) have none of their own. */
    private static boolean isDimension(Table table) {
        String name = table.getName();
        return table.getColumns()[0].getName().endsWith("_sk") && !name.endsWith("_sales")
                && !name.endsWith("_returns") && !name.equals("inventory");
    }

    private static String createTable(Table table) {
        return Arrays.stream(table.getColumns())
                .map(c -> c.getName() + " " + sqlType(c))
                .collect(Collectors.joining(", ", "CREATE TABLE " + table.getName() + " (", ")"));
    }

    private static String sqlType(Column column) {
        ColumnType type = column.getType();
        return switch (type.getBase()) {
            case IDENTIFIER -> "bigint";
            case INTEGER -> "integer";
            case DATE -> "date";
            case TIME -> "time";
            case DECIMAL -> "numeric(" + type.getPrecision().orElse(15) + ", " + type.getScale().orElse(2) + ")";
            case VARCHAR -> "varchar(" + type.getPrecision().orElse(255) + ")";
            case CHAR -> "char(" + type.getPrecision().orElse(1) + ")";
        };
    }

    /** A parent table's rows come with its child's (sales with their returns). */
    private static void copy(Connection connection, Table table, Session session) throws SQLException {
        CsvCopy parent = new CsvCopy(connection, table.getName());
        CsvCopy child = table.hasChild() ? new CsvCopy(connection, table.getChild().getName()) : null;
        String nullString = session.getNullString();
        for (List<List<String>> rows : Results.constructResults(table, session.withTable(table))) {
            parent.add(withNulls(rows.get(0), nullString));
            if (child != null && rows.size() > 1 && rows.get(1) != null) {
                child.add(withNulls(rows.get(1), nullString));
            }
            if (parent.rows() >= MAX_ROWS) {
                break;
            }
        }
        parent.flush();
        if (child != null) {
            child.flush();
        }
    }

    private static List<String> withNulls(List<String> row, String nullString) {
        List<String> values = new ArrayList<>(row.size());
        for (String value : row) {
            values.add(value == null || value.equals(nullString) ? null : value);
        }
        return values;
    }

    static String describe() {
        return String.format(Locale.ROOT,
                "TPC-DS at scale %s (trino's dsdgen), at most %,d rows a table, dimension keys, analyzed", SCALE,
                MAX_ROWS);
    }
}
