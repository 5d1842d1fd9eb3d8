package io.memogate.broker.probe.postgres;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads pg_stat_activity. backend_type (PostgreSQL 10+) tells client backends from background
 * processes; state 'active' means executing a statement (planning included). Callers check
 * {@link MonitoringRights} first: without it other users' states read as null.
 */
final class ActivityReader {

    private static final String QUERY = "SELECT pid, backend_type, state FROM pg_catalog.pg_stat_activity"
            + " WHERE pid <> pg_catalog.pg_backend_pid() ORDER BY pid";

    private ActivityReader() {
    }

    static Activity read(Connection connection) throws SQLException {
        List<Integer> clients = new ArrayList<>();
        List<Integer> all = new ArrayList<>();
        int active = 0;
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(QUERY)) {
            while (rows.next()) {
                int pid = rows.getInt(1);
                all.add(pid);
                if ("client backend".equals(rows.getString(2))) {
                    clients.add(pid);
                    if ("active".equals(rows.getString(3))) {
                        active++;
                    }
                }
            }
        }
        return new Activity(clients, active, all);
    }
}
