package io.memogate.broker.probe.postgres;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.memogate.broker.probe.ProbeException;

/**
 * Reads the server-wide settings the broker and the estimator need from pg_settings, in one query.
 * pg_settings shows what a new session starts with (postgresql.conf, ALTER SYSTEM, command line), not
 * what the monitoring session may have SET, and it needs no privilege.
 */
final class ServerSettingsReader {

    /** The settings that decide how the planner splits and searches a join problem, for the estimator. */
    static final List<String> PLANNER_SETTINGS = List.of("join_collapse_limit", "from_collapse_limit", "geqo",
            "geqo_threshold", "geqo_effort", "geqo_pool_size", "geqo_generations", "enable_partitionwise_join",
            "enable_partitionwise_aggregate", "enable_memoize");

    private static final List<String> MEMORY_SETTINGS = List.of("server_version", "server_version_num",
            "shared_buffers", "work_mem", "hash_mem_multiplier", "max_connections");

    private static final String QUERY = "SELECT name, setting, unit FROM pg_catalog.pg_settings WHERE name IN ("
            + Stream.concat(MEMORY_SETTINGS.stream(), PLANNER_SETTINGS.stream())
                    .map(name -> "'" + name + "'").collect(Collectors.joining(", "))
            + ")";

    private ServerSettingsReader() {
    }

    static ServerSettings read(Connection connection) throws SQLException, ProbeException {
        Map<String, String> settings = new HashMap<>();
        Map<String, String> units = new HashMap<>();
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(QUERY)) {
            while (rows.next()) {
                settings.put(rows.getString(1), rows.getString(2));
                units.put(rows.getString(1), rows.getString(3));
            }
        }
        Map<String, String> planner = new LinkedHashMap<>();
        for (String name : PLANNER_SETTINGS) {
            if (settings.containsKey(name)) {
                planner.put(name, settings.get(name));
            }
        }
        return new ServerSettings(
                required(settings, "server_version"),
                integer(settings, "server_version_num"),
                bytes(settings, units, "shared_buffers"),
                bytes(settings, units, "work_mem"),
                hashMemMultiplier(settings),
                integer(settings, "max_connections"),
                planner);
    }

    private static String required(Map<String, String> settings, String name) throws ProbeException {
        String value = settings.get(name);
        if (value == null) {
            throw new ProbeException("pg_settings has no value for " + name);
        }
        return value;
    }

    private static int integer(Map<String, String> settings, String name) throws ProbeException {
        String value = required(settings, name);
        try {
            return Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw new ProbeException("pg_settings." + name + ": value '" + value + "' is not an integer", e);
        }
    }

    private static long bytes(Map<String, String> settings, Map<String, String> units, String name)
            throws ProbeException {
        try {
            return MemoryUnits.bytes(required(settings, name), units.get(name));
        } catch (IllegalArgumentException e) {
            throw new ProbeException("pg_settings." + name + ": " + e.getMessage(), e);
        }
    }

    /**
     * hash_mem_multiplier appeared in PostgreSQL 13. Before it a hash table was bounded by work_mem
     * alone, which is what a multiplier of 1 says: the server's real behaviour, not a guess.
     */
    private static double hashMemMultiplier(Map<String, String> settings) throws ProbeException {
        String value = settings.get("hash_mem_multiplier");
        if (value == null) {
            if (integer(settings, "server_version_num") < 130000) {
                return 1.0;
            }
            throw new ProbeException("pg_settings has no value for hash_mem_multiplier");
        }
        try {
            return Double.parseDouble(value.strip());
        } catch (NumberFormatException e) {
            throw new ProbeException("pg_settings.hash_mem_multiplier: value '" + value + "' is not a number", e);
        }
    }
}
