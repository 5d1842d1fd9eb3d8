package io.memogate.proxy.pg.session;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The query that asks PostgreSQL what a session holds that a new connection with the same StartupMessage
 * would lack. It answers rows of (kind, name, value, parameter types), read into a {@link CarriedState}:
 * <ul>
 *   <li>one {@code held} row whose value counts what cannot be carried over: SQL-level prepared
 *       statements (their recorded text may hold more than the PREPARE), open cursors (WITH HOLD ones
 *       outlive their transaction), LISTEN channels, session advisory locks, and temporary relations.
 *       Anything but 0 keeps the connection;
 *   <li>a {@code setting} row per setting whose source is the session (SET, set_config), except those
 *       with the value the StartupMessage gives them; pgjdbc, for one, SETs application_name after its
 *       login;
 *   <li>a {@code statement} row per protocol-level prepared statement, with its text and parameter type
 *       OIDs: pgjdbc prepares its COMMIT and every statement it has run five times.
 * </ul>
 * Settings and statements are given to the new connection before it serves the client. What the query
 * cannot see: the results of currval/lastval, and state in extensions (dblink connections). Names are
 * schema-qualified so that no search_path can redirect them.
 */
final class SessionStateCheck {

    static final String STATEMENT = "memogate_recycle_check";

    /** StartupMessage keys that are not settings. */
    private static final Set<String> NOT_SETTINGS = Set.of("user", "database", "options", "replication");

    private SessionStateCheck() {
    }

    static String sql(Map<String, String> startupParameters) {
        String fromStartup = startupParameters.entrySet().stream()
                .filter(parameter -> !NOT_SETTINGS.contains(parameter.getKey()))
                .map(parameter -> "(" + literal(parameter.getKey().toLowerCase(Locale.ROOT)) + ", "
                        + literal(parameter.getValue()) + ")")
                .collect(Collectors.joining(", "));
        return "SELECT 'held', NULL, ((SELECT count(*) FROM pg_catalog.pg_prepared_statements WHERE from_sql)"
                // The check's own portal is the unnamed one; a client's unnamed portal ended with its transaction.
                + " + (SELECT count(*) FROM pg_catalog.pg_cursors WHERE name <> '')"
                + " + (SELECT count(*) FROM pg_catalog.pg_listening_channels())"
                + " + (SELECT count(*) FROM pg_catalog.pg_locks"
                + " WHERE pid = pg_catalog.pg_backend_pid() AND locktype = 'advisory')"
                + " + (SELECT count(*) FROM pg_catalog.pg_class WHERE relnamespace = pg_catalog.pg_my_temp_schema()))::text,"
                + " NULL"
                + " UNION ALL SELECT 'setting', name, setting, NULL FROM pg_catalog.pg_settings WHERE source = 'session'"
                + (fromStartup.isEmpty() ? "" : " AND (lower(name), setting) NOT IN (VALUES " + fromStartup + ")")
                + " UNION ALL SELECT 'statement', name, statement, parameter_types::pg_catalog.oid[]::text"
                + " FROM pg_catalog.pg_prepared_statements WHERE NOT from_sql AND name <> '" + STATEMENT + "'";
    }

    /** An E'' literal: read the same whatever standard_conforming_strings says. */
    static String literal(String value) {
        return "E'" + value.replace("\\", "\\\\").replace("'", "''") + "'";
    }
}
