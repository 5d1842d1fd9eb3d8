package io.memogate.broker.probe.mysql;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Collectors;

import io.memogate.broker.probe.ProbeException;

/**
 * The global system variables and status variables one poll reads, by name, as the server states them.
 * Both SHOWs need no privilege, and GLOBAL gives what a new session starts with and the server-wide
 * counters, not what the monitoring session may have set or counted itself.
 *
 * @param variables SHOW GLOBAL VARIABLES
 * @param status    SHOW GLOBAL STATUS
 */
record GlobalValues(Map<String, String> variables, Map<String, String> status) {

    /** The settings that decide how the optimizer searches join orders, for the estimator. */
    static final List<String> OPTIMIZER_SETTINGS = List.of("optimizer_search_depth", "optimizer_prune_level",
            "optimizer_switch");

    /** performance_schema is a read-only variable: ON when the server was started with it. */
    static final List<String> VARIABLES = List.of("version", "innodb_buffer_pool_size", "sort_buffer_size",
            "max_connections", "performance_schema", "global_connection_memory_tracking", "optimizer_search_depth",
            "optimizer_prune_level", "optimizer_switch");

    /**
     * Memory_used and Memory_used_initial are MariaDB's; Global_connection_memory MySQL's (8.0.28+, counted
     * while global_connection_memory_tracking is ON). A server lacks the other's.
     */
    static final List<String> STATUS = List.of("Memory_used", "Memory_used_initial", "Global_connection_memory",
            "Threads_connected", "Threads_running", "Innodb_buffer_pool_reads", "Innodb_buffer_pool_read_requests",
            "Created_tmp_disk_tables", "Sort_merge_passes");

    GlobalValues {
        variables = Map.copyOf(variables);
        status = Map.copyOf(status);
    }

    static GlobalValues read(Connection connection) throws SQLException {
        return new GlobalValues(show(connection, "SHOW GLOBAL VARIABLES", VARIABLES),
                show(connection, "SHOW GLOBAL STATUS", STATUS));
    }

    /** Names are matched case-insensitively by the server and kept as the lists above spell them. */
    private static Map<String, String> show(Connection connection, String show, List<String> names)
            throws SQLException {
        Map<String, String> byLowerName = names.stream().collect(Collectors.toMap(String::toLowerCase, name -> name));
        String query = show + " WHERE Variable_name IN ("
                + names.stream().map(name -> "'" + name + "'").collect(Collectors.joining(", ")) + ")";
        Map<String, String> values = new HashMap<>();
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(query)) {
            while (rows.next()) {
                String name = byLowerName.get(rows.getString(1).toLowerCase());
                if (name != null && rows.getString(2) != null) {
                    values.put(name, rows.getString(2));
                }
            }
        }
        return values;
    }

    String version() throws ProbeException {
        return required(variables, "version", "variable");
    }

    long variable(String name) throws ProbeException {
        return number(required(variables, name, "variable"), name);
    }

    long status(String name) throws ProbeException {
        return number(required(status, name, "status variable"), name);
    }

    /** A status variable the server may not have (the other flavour's, or an older release's). */
    OptionalLong optionalStatus(String name) throws ProbeException {
        String value = status.get(name);
        return value == null ? OptionalLong.empty() : OptionalLong.of(number(value, name));
    }

    boolean variableOn(String name) {
        String value = variables.get(name);
        return value != null && (value.equalsIgnoreCase("ON") || value.equals("1"));
    }

    private static String required(Map<String, String> values, String name, String what) throws ProbeException {
        String value = values.get(name);
        if (value == null) {
            throw new ProbeException("the server reported no " + what + " " + name);
        }
        return value;
    }

    private static long number(String value, String name) throws ProbeException {
        try {
            return Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            throw new ProbeException(name + ": value '" + value + "' is not an integer", e);
        }
    }
}
