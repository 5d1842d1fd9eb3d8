package io.memogate.proxy.postgres.calibrate.tpc;

import io.memogate.estimator.lexer.StatementKind;
import io.memogate.proxy.postgres.calibrate.CorpusStatement;
import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchColumnType;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * TPC-H's eight tables with dbgen's data at a small scale factor (trino's port of dbgen), primary keys
 * as the specification names them, analyzed: small data, but the statistics and indexes of the real
 * thing, which decide how many paths the planner keeps.
 */
public final class TpchDatabase {

    /** 0.01: 60,000 lineitem rows, loaded in seconds. */
    public static final double SCALE = 0.01;

    private static final List<String> PRIMARY_KEYS = List.of(
            "region (r_regionkey)", "nation (n_nationkey)", "part (p_partkey)", "supplier (s_suppkey)",
            "partsupp (ps_partkey, ps_suppkey)", "customer (c_custkey)", "orders (o_orderkey)",
            "lineitem (l_orderkey, l_linenumber)");

    private TpchDatabase() {
    }

    /** Creates and fills the eight tables, adds their primary keys and analyzes them. */
    public static void load(Connection connection, TableLifetime lifetime) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            for (TpchTable<?> table : TpchTable.getTables()) {
                statement.execute(createTable(table, lifetime));
                copy(connection, table);
            }
            for (String key : PRIMARY_KEYS) {
                String table = key.substring(0, key.indexOf(' '));
                statement.execute("ALTER TABLE " + table + " ADD PRIMARY KEY " + key.substring(key.indexOf(' ') + 1));
            }
            for (TpchTable<?> table : TpchTable.getTables()) {
                statement.execute("ANALYZE " + table.getTableName());
            }
        }
    }

    /** trino's copies of the 22 queries, with their substitution parameters' validation values, named q1 to q22. */
    public static List<CorpusStatement> queries() {
        List<CorpusStatement> queries = new ArrayList<>();
        for (int q = 1; q <= 22; q++) {
            for (StatementText statement : statements(q)) {
                if (statement.query()) {
                    queries.add(new CorpusStatement("q" + q, statement.sql()));
                }
            }
        }
        return queries;
    }

    /** What the queries need first: query 15's view (its DROP VIEW left out). */
    public static List<String> setup() {
        List<String> setup = new ArrayList<>();
        for (int q = 1; q <= 22; q++) {
            for (StatementText statement : statements(q)) {
                if (!statement.query() && !statement.sql().regionMatches(true, 0, "DROP", 0, 4)) {
                    setup.add(statement.sql());
                }
            }
        }
        return setup;
    }

    private record StatementText(String sql, boolean query) {
    }

    private static List<StatementText> statements(int q) {
        String text = Scripts.resource("/io/trino/tpch/queries/q" + q + ".sql");
        return Scripts.analyze(text).stream()
                .map(s -> new StatementText(s.span().of(text).strip(),
                        s.kind() == StatementKind.SELECT || s.kind() == StatementKind.WITH))
                .filter(s -> !s.sql().isEmpty())
                .toList();
    }

    private static String createTable(TpchTable<?> table, TableLifetime lifetime) {
        return table.getColumns().stream()
                .map(c -> c.getColumnName() + " " + sqlType(c))
                .collect(Collectors.joining(", ", lifetime.create() + table.getTableName() + " (", ")"));
    }

    private static String sqlType(TpchColumn<?> column) {
        TpchColumnType type = column.getType();
        return switch (type.getBase()) {
            case IDENTIFIER -> "bigint";
            case INTEGER -> "integer";
            case DATE -> "date";
            case DOUBLE -> "numeric(15, 2)";
            case VARCHAR -> "varchar(" + type.getPrecision().orElse(255L) + ")";
        };
    }

    private static <E extends TpchEntity> void copy(Connection connection, TpchTable<E> table) throws SQLException {
        CsvCopy copy = new CsvCopy(connection, table.getTableName());
        for (E row : table.createGenerator(SCALE, 1, 1)) {
            String line = row.toLine();
            // dbgen's lines end with the separator.
            String[] values = line.substring(0, line.length() - 1).split("\\|", -1);
            copy.add(Arrays.asList(values));
        }
        copy.flush();
    }

    public static String describe() {
        return String.format(Locale.ROOT, "TPC-H at scale %s (trino's dbgen), primary keys, analyzed", SCALE);
    }
}
