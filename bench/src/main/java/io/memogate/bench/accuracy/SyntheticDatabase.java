package io.memogate.bench.accuracy;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The synthetic shapes' tables: s0 ... s{@value #TABLES - 1}, each with a primary key {@code id}, one
 * join column per other table ({@code k0} ... ), and {@value #ROWS} rows of uniformly spread values,
 * analyzed. A join column per edge keeps every edge its own equivalence class, so a shape is planned as
 * the shape it is (joins on one shared column would make any shape a clique).
 */
final class SyntheticDatabase {

    static final int TABLES = 16;
    static final int ROWS = 2_000;

    private SyntheticDatabase() {
    }

    static void load(Connection connection) throws SQLException {
        String keys = IntStream.range(0, TABLES).mapToObj(k -> "k" + k + " integer").collect(Collectors.joining(", "));
        String values = IntStream.range(0, TABLES).mapToObj(k -> "(random() * " + ROWS + ")::integer")
                .collect(Collectors.joining(", "));
        try (Statement statement = connection.createStatement()) {
            for (int t = 0; t < TABLES; t++) {
                statement.execute("CREATE TABLE s" + t + " (id integer PRIMARY KEY, " + keys + ", label text)");
                statement.execute("INSERT INTO s" + t + " SELECT g, " + values + ", 'row ' || g FROM generate_series(1, "
                        + ROWS + ") AS g");
            }
            statement.execute("ANALYZE");
        }
    }

    static String describe() {
        return TABLES + " tables of " + ROWS + " rows, primary keys, a join column per edge, analyzed";
    }
}
