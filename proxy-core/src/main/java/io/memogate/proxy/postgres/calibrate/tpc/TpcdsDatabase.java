package io.memogate.proxy.postgres.calibrate.tpc;

import io.memogate.proxy.postgres.calibrate.CorpusStatement;
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
import java.util.Random;
import java.util.stream.Collectors;
import net.hydromatic.tpcds.query.Query;

/**
 * TPC-DS's 24 tables with dsdgen's data at a small scale factor (trino's port of dsdgen), each table cut
 * at {@link #MAX_ROWS} rows, the dimensions' surrogate keys as primary keys, analyzed.
 */
public final class TpcdsDatabase {

    public static final double SCALE = 0.01;
    /** customer_demographics alone has 1.9 million rows at any scale; statistics need far fewer. */
    public static final int MAX_ROWS = 100_000;

    private TpcdsDatabase() {
    }

    /** Creates and fills the 24 tables, adds the dimensions' primary keys and analyzes them. */
    public static void load(Connection connection, TableLifetime lifetime) throws SQLException {
        Session session = Session.getDefaultSession().withScale(SCALE);
        try (Statement statement = connection.createStatement()) {
            for (Table table : Table.getBaseTables()) {
                statement.execute(createTable(table, lifetime));
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
            for (Table table : Table.getBaseTables()) {
                statement.execute("ANALYZE " + table.getName());
            }
        }
    }

    /**
     * hydromatic's 99 query templates, their parameters drawn with a fixed seed per query, made plannable
     * ({@link TpcdsQueryText}); named q1 to q99, with a letter where a template holds several statements (q14a).
     */
    public static List<CorpusStatement> queries() {
        List<CorpusStatement> queries = new ArrayList<>();
        for (Query query : Query.values()) {
            List<String> statements = Scripts.split(TpcdsQueryText.forPostgres(query.sql(new Random(query.id))));
            for (int i = 0; i < statements.size(); i++) {
                String id = "q" + query.id + (statements.size() > 1 ? String.valueOf((char) ('a' + i)) : "");
                queries.add(new CorpusStatement(id, statements.get(i)));
            }
        }
        return queries;
    }

    /** Dimensions start with their surrogate key; facts (sales, returns, inventory) have none of their own. */
    private static boolean isDimension(Table table) {
        String name = table.getName();
        return table.getColumns()[0].getName().endsWith("_sk") && !name.endsWith("_sales")
                && !name.endsWith("_returns") && !name.equals("inventory");
    }

    private static String createTable(Table table, TableLifetime lifetime) {
        return Arrays.stream(table.getColumns())
                .map(c -> c.getName() + " " + sqlType(c))
                .collect(Collectors.joining(", ", lifetime.create() + table.getName() + " (", ")"));
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

    public static String describe() {
        return String.format(Locale.ROOT,
                "TPC-DS at scale %s (trino's dsdgen), at most %,d rows a table, dimension keys, analyzed", SCALE,
                MAX_ROWS);
    }
}
