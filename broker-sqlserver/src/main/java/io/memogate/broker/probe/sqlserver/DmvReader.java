package io.memogate.broker.probe.sqlserver;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

/**
 * Runs the probe's queries on the monitoring connection: the only class that touches JDBC rows. Each query names
 * the columns Microsoft documents for its view and filters to what {@link SqlServerReading} uses. Every view
 * but the first needs VIEW SERVER STATE (SQL Server 2022 and later: VIEW SERVER PERFORMANCE STATE), which
 * {@link MonitoringRights} checks first.
 */
final class DmvReader {

    /** Error 208, "Invalid object name": the release has no such view. */
    static final int INVALID_OBJECT_NAME = 208;

    static final String SERVER = "SELECT CAST(SERVERPROPERTY('ProductVersion') AS nvarchar(32)) AS product_version,"
            + " @@MAX_CONNECTIONS AS max_connections";

    static final String CLERKS = "SELECT type, SUM(pages_kb) AS pages_kb FROM sys.dm_os_memory_clerks"
            + " WHERE type IN (" + quoted(SqlServerReading.CLERK_TYPES) + ") GROUP BY type";

    static final String WAITS = "SELECT wait_type, waiting_tasks_count, wait_time_ms FROM sys.dm_os_wait_stats"
            + " WHERE wait_type IN (" + quoted(SqlServerReading.WAIT_TYPES) + ")";

    /** object_name carries the instance ("SQLServer:" or "MSSQL$NAME:"); the reading matches what follows it. */
    static final String COUNTERS = "SELECT RTRIM(object_name) AS object_name, RTRIM(counter_name) AS counter_name,"
            + " cntr_value FROM sys.dm_os_performance_counters WHERE counter_name IN ("
            + quoted(SqlServerReading.COUNTER_NAMES) + ")";

    static final String SYS_MEMORY = "SELECT total_physical_memory_kb, available_physical_memory_kb"
            + " FROM sys.dm_os_sys_memory";

    static final String SYS_INFO = "SELECT cpu_count, scheduler_count FROM sys.dm_os_sys_info";

    static final String GATEWAYS = "SELECT pool_id, name, max_count, active_count, waiter_count, threshold"
            + " FROM sys.dm_exec_query_optimizer_memory_gateways";

    static final String GRANTS = "SELECT session_id, requested_memory_kb, granted_memory_kb"
            + " FROM sys.dm_exec_query_memory_grants";

    /** A session with a request in sys.dm_exec_requests runs a statement now (or waits to). */
    static final String SESSIONS = "SELECT s.session_id, s.memory_usage, CASE WHEN EXISTS (SELECT 1"
            + " FROM sys.dm_exec_requests r WHERE r.session_id = s.session_id) THEN 1 ELSE 0 END AS running"
            + " FROM sys.dm_exec_sessions s WHERE s.is_user_process = 1 AND s.session_id <> @@SPID";

    private final int timeoutSeconds;

    /** @param timeoutSeconds each query's bound (Statement.setQueryTimeout), at least one second */
    DmvReader(int timeoutSeconds) {
        this.timeoutSeconds = Math.max(1, timeoutSeconds);
    }

    DmvResults read(Connection connection) throws SQLException {
        return new DmvResults(
                query(connection, "SERVERPROPERTY", SERVER),
                query(connection, "sys.dm_os_memory_clerks", CLERKS),
                query(connection, "sys.dm_os_wait_stats", WAITS),
                query(connection, "sys.dm_os_performance_counters", COUNTERS),
                query(connection, "sys.dm_os_sys_memory", SYS_MEMORY),
                query(connection, "sys.dm_os_sys_info", SYS_INFO),
                gateways(connection),
                query(connection, "sys.dm_exec_query_memory_grants", GRANTS),
                query(connection, "sys.dm_exec_sessions", SESSIONS));
    }

    ResultRows query(Connection connection, String view, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.setQueryTimeout(timeoutSeconds);
            return ResultRows.read(view, statement.executeQuery(sql));
        }
    }

    /** The server's own gateways; empty where the view does not exist (before SQL Server 2016). */
    private Optional<ResultRows> gateways(Connection connection) throws SQLException {
        try {
            return Optional.of(query(connection, "sys.dm_exec_query_optimizer_memory_gateways", GATEWAYS));
        } catch (SQLException e) {
            if (e.getErrorCode() == INVALID_OBJECT_NAME) {
                return Optional.empty();
            }
            throw e;
        }
    }

    private static String quoted(Iterable<String> names) {
        StringBuilder list = new StringBuilder();
        for (String name : names) {
            list.append(list.isEmpty() ? "" : ", ").append("N'").append(name.replace("'", "''")).append('\'');
        }
        return list.toString();
    }
}
