package io.memogate.broker.probe.postgres;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads pg_stat_activity. backend_type (PostgreSQL 10+) tells client backends from background
 * processes; state 'active' means executing a statement (planning included), the 'idle' states waiting for the
 * client since state_change. Callers check {@link MonitoringRights} first: without it other users' states read as
 * null.
 */
final class ActivityReader {

    private static final String QUERY = "SELECT pid, backend_type, state,"
            + " (extract(epoch FROM state_change) * 1000000)::int8 FROM pg_catalog.pg_stat_activity"
            + " WHERE pid <> pg_catalog.pg_backend_pid() ORDER BY pid";

    private ActivityReader() {
    }

    static Activity read(Connection connection) throws SQLException {
        List<Integer> clients = new ArrayList<>();
        List<Integer> all = new ArrayList<>();
        Map<Integer, Long> idleSince = new HashMap<>();
        int active = 0;
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(QUERY)) {
            while (rows.next()) {
                int pid = rows.getInt(1);
                all.add(pid);
                if ("client backend".equals(rows.getString(2))) {
                    clients.add(pid);
                    String state = rows.getString(3);
                    long stateChange = rows.getLong(4);
                    if ("active".equals(state)) {
                        active++;
                    } else if (state != null && state.startsWith("idle") && !rows.wasNull()) {
                        idleSince.put(pid, stateChange);
                    }
                }
            }
        }
        return new Activity(clients, active, all, idleSince);
    }
}
