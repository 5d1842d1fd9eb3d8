package io.memogate.broker.probe.sqlserver;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Who the monitoring login is and whether it may read the server-wide dynamic management views: they need
 * VIEW SERVER STATE, which SQL Server 2022 splits so that VIEW SERVER PERFORMANCE STATE suffices for every view
 * the probe reads. Without either, each view fails with error 300 (or, for sys.dm_exec_sessions, shows the login
 * only its own session): the probe then reads nothing, and says which grant would let it.
 * sys.fn_my_permissions lists effective permissions, so a grant through a server role or CONTROL SERVER counts.
 *
 * @param login                 SUSER_SNAME(), as a GRANT names it
 * @param viewServerState       whether it holds VIEW SERVER STATE
 * @param viewPerformanceState  whether it holds VIEW SERVER PERFORMANCE STATE (SQL Server 2022 and later)
 */
record MonitoringRights(String login, boolean viewServerState, boolean viewPerformanceState) {

    /** Any login may run it: SUSER_SNAME() and its own permissions. */
    static final String QUERY = "SELECT SUSER_SNAME() AS login,"
            + " (SELECT COUNT(*) FROM sys.fn_my_permissions(NULL, 'SERVER')"
            + " WHERE permission_name = 'VIEW SERVER STATE') AS view_server_state,"
            + " (SELECT COUNT(*) FROM sys.fn_my_permissions(NULL, 'SERVER')"
            + " WHERE permission_name = 'VIEW SERVER PERFORMANCE STATE') AS view_server_performance_state";

    MonitoringRights {
        Objects.requireNonNull(login, "login");
    }

    static MonitoringRights of(ResultRows rows) {
        Map<String, String> row = rows.single();
        return new MonitoringRights(rows.text(row, "login"), rows.number(row, "view_server_state") > 0,
                rows.number(row, "view_server_performance_state") > 0);
    }

    boolean canMonitor() {
        return viewServerState || viewPerformanceState;
    }

    /** Why the probe reads nothing, with the grant that would let it; empty when it may read every view. */
    Optional<String> missing() {
        if (canMonitor()) {
            return Optional.empty();
        }
        String grantee = "[" + login.replace("]", "]]") + "]";
        return Optional.of("SQL Server monitoring login " + grantee + " lacks VIEW SERVER STATE, so it cannot read the"
                + " memory clerks, wait statistics, performance counters or compile gateways: the broker keeps its last"
                + " good target for broker.gracePeriod, then broker.staticTarget (GRANT VIEW SERVER PERFORMANCE STATE TO "
                + grantee + " on SQL Server 2022 and later, GRANT VIEW SERVER STATE TO " + grantee + " before)");
    }
}
