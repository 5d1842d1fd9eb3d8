package io.memogate.broker.probe.mysql;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Who the monitoring user is and whether it holds PROCESS, without which information_schema.PROCESSLIST and
 * performance_schema.threads show it only its own connections: every other client would be missing, without an
 * error. information_schema.USER_PRIVILEGES lists the privileges granted to the user itself (a PROCESS it
 * holds only through a role is not seen there, and the probe then falls back as without it).
 *
 * @param user    CURRENT_USER() as the server matched the login, {@code name@host}
 * @param process whether it may see every connection
 */
record MonitoringRights(String user, boolean process) {

    private static final String QUERY = "SELECT CURRENT_USER(), EXISTS (SELECT 1 FROM information_schema.USER_PRIVILEGES"
            + " WHERE PRIVILEGE_TYPE = 'PROCESS' AND GRANTEE = CONCAT('''', SUBSTRING_INDEX(CURRENT_USER(), '@', 1),"
            + " '''@''', SUBSTRING_INDEX(CURRENT_USER(), '@', -1), ''''))";

    static MonitoringRights read(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet row = statement.executeQuery(QUERY)) {
            row.next();
            return new MonitoringRights(row.getString(1), row.getBoolean(2));
        }
    }

    /** The user as a GRANT names it: 'name'@'host'. */
    String account() {
        int at = user.lastIndexOf('@');
        String name = at < 0 ? user : user.substring(0, at);
        String host = at < 0 ? "%" : user.substring(at + 1);
        return quote(name) + "@" + quote(host);
    }

    private static String quote(String part) {
        return "'" + part.replace("\\", "\\\\").replace("'", "''") + "'";
    }
}
