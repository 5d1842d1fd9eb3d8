package io.memogate.broker.probe.postgres;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Pattern;

import io.memogate.broker.probe.ProbeException;

/**
 * Checks that the monitoring user may see every session. pg_stat_activity shows other users' rows to
 * anyone, but hides their state and query unless the viewer is a superuser or has the privileges of
 * pg_read_all_stats (which pg_monitor includes). Without that right every foreign session looks idle,
 * so the active count, and the execution reserve the broker derives from it, would be too low without
 * any error: the probe fails instead, saying what to grant.
 */
final class MonitoringRights {

    /** pg_has_role(..., 'USAGE') follows inheritance and is true for superusers, who have every role's rights. */
    private static final String QUERY =
            "SELECT current_user, pg_catalog.pg_has_role(current_user, 'pg_read_all_stats', 'USAGE')";
    private static final Pattern PLAIN_IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_$]*");

    private MonitoringRights() {
    }

    static void check(Connection connection) throws SQLException, ProbeException {
        try (Statement statement = connection.createStatement(); ResultSet row = statement.executeQuery(QUERY)) {
            row.next();
            String user = row.getString(1);
            if (!row.getBoolean(2)) {
                throw new ProbeException(missingRightMessage(user));
            }
        }
    }

    static String missingRightMessage(String user) {
        return "monitoring user '" + user + "' cannot see other sessions: GRANT pg_monitor TO " + identifier(user);
    }

    /** The user as it must be written in SQL: as is when it is a plain lower-case name, else double-quoted. */
    static String identifier(String name) {
        return PLAIN_IDENTIFIER.matcher(name).matches() ? name : "\"" + name.replace("\"", "\"\"") + "\"";
    }
}
