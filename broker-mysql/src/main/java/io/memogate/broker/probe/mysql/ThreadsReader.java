package io.memogate.broker.probe.mysql;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * Reads the client connections' threads, the probe's own and the servers' daemons (event scheduler) left out.
 * Every query here shows other users' threads only to a user with the PROCESS privilege; callers ask
 * {@link MonitoringRights} first.
 *
 * <ul>
 * <li>MariaDB: information_schema.PROCESSLIST with MEMORY_USED (10.0+);</li>
 * <li>MySQL 8.0.31+ with performance_schema: performance_schema.threads with TOTAL_MEMORY;</li>
 * <li>older MySQL, or MySQL without performance_schema: information_schema.PROCESSLIST, without memory.</li>
 * </ul>
 */
final class ThreadsReader {

    /** The release that added CONTROLLED_MEMORY and TOTAL_MEMORY to performance_schema.threads. */
    static final int MYSQL_THREAD_MEMORY_VERSION = 80031;

    private static final String PROCESSLIST_WITH_MEMORY = "SELECT ID, COMMAND, STATE, MEMORY_USED"
            + " FROM information_schema.PROCESSLIST WHERE ID <> CONNECTION_ID() AND COMMAND <> 'Daemon' ORDER BY ID";
    private static final String PROCESSLIST = "SELECT ID, COMMAND, STATE, NULL"
            + " FROM information_schema.PROCESSLIST WHERE ID <> CONNECTION_ID() AND COMMAND <> 'Daemon' ORDER BY ID";
    private static final String MYSQL_THREADS = "SELECT PROCESSLIST_ID, PROCESSLIST_COMMAND, PROCESSLIST_STATE,"
            + " TOTAL_MEMORY FROM performance_schema.threads WHERE TYPE = 'FOREGROUND' AND PROCESSLIST_ID IS NOT NULL"
            + " AND PROCESSLIST_ID <> CONNECTION_ID() AND PROCESSLIST_COMMAND <> 'Daemon' ORDER BY PROCESSLIST_ID";

    private ThreadsReader() {
    }

    /** The query that reads the threads of this server, as its flavour, release and readable schemas allow. */
    static String query(Flavor flavor, int versionNumber, boolean performanceSchemaReadable) {
        if (flavor == Flavor.MARIADB) {
            return PROCESSLIST_WITH_MEMORY;
        }
        return performanceSchemaReadable && versionNumber >= MYSQL_THREAD_MEMORY_VERSION ? MYSQL_THREADS : PROCESSLIST;
    }

    static List<ThreadRow> read(Connection connection, String query) throws SQLException {
        List<ThreadRow> threads = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(query)) {
            while (rows.next()) {
                long memory = rows.getLong(4);
                OptionalLong memoryBytes = rows.wasNull() ? OptionalLong.empty() : OptionalLong.of(Math.max(0, memory));
                threads.add(new ThreadRow(rows.getLong(1), rows.getString(2), rows.getString(3), memoryBytes));
            }
        }
        return threads;
    }
}
