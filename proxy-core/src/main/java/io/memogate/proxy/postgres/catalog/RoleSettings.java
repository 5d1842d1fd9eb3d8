package io.memogate.proxy.postgres.catalog;

import io.memogate.estimator.postgres.PlannerSettings;
import io.memogate.proxy.admission.LoginSettings;
import java.sql.Array;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The planner settings a database's sessions start with beyond the server-wide ones, as DBAs give them to
 * BI roles: {@code ALTER ROLE ... IN DATABASE ... SET}, {@code ALTER ROLE ... SET}, {@code ALTER DATABASE
 * ... SET} and {@code ALTER ROLE ALL SET}, read from {@code pg_db_role_setting} (readable by any role).
 * PostgreSQL applies them at login with that precedence (postinit.c, process_settings), over the server's
 * configuration and under the startup packet's options. Only settings the estimator models are kept.
 *
 * @param allRoles {@code ALTER ROLE ALL SET}
 * @param database {@code ALTER DATABASE SET} of this database
 * @param byRole {@code ALTER ROLE r SET}, by role
 * @param byRoleHere {@code ALTER ROLE r IN DATABASE SET} for this database, by role
 */
public record RoleSettings(Map<String, String> allRoles, Map<String, String> database,
                           Map<String, Map<String, String>> byRole, Map<String, Map<String, String>> byRoleHere)
        implements LoginSettings {

    /** None: every session starts from the server's settings. */
    public static final RoleSettings NONE = new RoleSettings(Map.of(), Map.of(), Map.of(), Map.of());

    static final String QUERY = """
            SELECT coalesce(r.rolname, ''), s.setdatabase <> 0, s.setconfig
            FROM pg_catalog.pg_db_role_setting s
            LEFT JOIN pg_catalog.pg_roles r ON r.oid = s.setrole
            WHERE s.setdatabase = 0
               OR s.setdatabase = (SELECT oid FROM pg_catalog.pg_database WHERE datname = current_database())""";

    public RoleSettings {
        allRoles = Map.copyOf(allRoles);
        database = Map.copyOf(database);
        byRole = Map.copyOf(byRole);
        byRoleHere = Map.copyOf(byRoleHere);
    }

    /** The settings of the database {@code connection} is connected to. */
    public static RoleSettings read(Connection connection) throws SQLException {
        Map<String, String> allRoles = new HashMap<>();
        Map<String, String> database = new HashMap<>();
        Map<String, Map<String, String>> byRole = new HashMap<>();
        Map<String, Map<String, String>> byRoleHere = new HashMap<>();
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(QUERY)) {
            while (rows.next()) {
                String role = rows.getString(1);
                boolean here = rows.getBoolean(2);
                Map<String, String> settings = plannerSettings(rows.getArray(3));
                if (role.isEmpty()) {
                    (here ? database : allRoles).putAll(settings);
                } else {
                    (here ? byRoleHere : byRole).put(role, settings);
                }
            }
        }
        return new RoleSettings(allRoles, database, byRole, byRoleHere);
    }

    /** What a session of {@code role} starts with, lowest precedence first; empty when nothing is set. */
    public Map<String, String> of(String role) {
        if (this == NONE) {
            return Map.of();
        }
        Map<String, String> settings = new LinkedHashMap<>(allRoles);
        settings.putAll(database);
        if (role != null) { // the immutable maps refuse a null key
            settings.putAll(byRole.getOrDefault(role, Map.of()));
            settings.putAll(byRoleHere.getOrDefault(role, Map.of()));
        }
        return settings;
    }

    /** The "name=value" entries of a setconfig array that are planner settings the estimator models. */
    private static Map<String, String> plannerSettings(Array setconfig) throws SQLException {
        Map<String, String> settings = new HashMap<>();
        if (setconfig == null) {
            return settings;
        }
        for (Object entry : (Object[]) setconfig.getArray()) {
            String text = String.valueOf(entry);
            int equals = text.indexOf('=');
            if (equals > 0 && PlannerSettings.accepts(text.substring(0, equals), text.substring(equals + 1))) {
                settings.put(text.substring(0, equals), text.substring(equals + 1));
            }
        }
        return settings;
    }
}
