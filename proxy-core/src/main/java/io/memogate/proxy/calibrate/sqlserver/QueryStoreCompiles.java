package io.memogate.proxy.calibrate.sqlserver;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The compiles a SQL Server's Query Store kept (<a href="https://learn.microsoft.com/en-us/sql/relational-databases/system-catalog-views/sys-query-store-query-transact-sql">
 * sys.query_store_query</a>): each query's text and its average compile memory ({@code avg_compile_memory_kb}), the
 * queries compiled most first. Needs VIEW DATABASE STATE in a database whose Query Store is on. Written from the
 * documentation; never run against a server here.
 */
public final class QueryStoreCompiles {

    static final String QUERY = """
            SELECT TOP (?) t.query_sql_text, q.avg_compile_memory_kb
            FROM sys.query_store_query AS q
            JOIN sys.query_store_query_text AS t ON t.query_text_id = q.query_text_id
            WHERE q.count_compiles > 0 AND q.avg_compile_memory_kb > 0
            ORDER BY q.count_compiles DESC""";

    private QueryStoreCompiles() {
    }

    /** Up to {@code limit} queries' texts and average compile memory, in bytes. */
    public static List<SqlServerFit.Observation> read(Connection connection, int limit) throws SQLException {
        List<SqlServerFit.Observation> observations = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement(QUERY)) {
            statement.setInt(1, limit);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    observations.add(new SqlServerFit.Observation(rows.getString(1), rows.getDouble(2) * 1024));
                }
            }
        }
        return observations;
    }
}
