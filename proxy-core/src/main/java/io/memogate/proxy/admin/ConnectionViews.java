package io.memogate.proxy.admin;

import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * SHOW CLIENTS and SHOW SERVERS, from one snapshot of the sessions. In session mode every server connection
 * belongs to one client session, so SHOW SERVERS is the server side of the same rows: the server's process
 * id there is what pg_stat_activity.pid and pg_backend_pid() say on the server.
 */
final class ConnectionViews {

    private ConnectionViews() {
    }

    static ResultTable clients(List<ClientView> sessions) {
        ResultTable.Builder table = ResultTable.of("user", "database", "application_name", "client_addr", "tls",
                "state", "connected_at", "backend", "server_pid", "waiting");
        for (ClientView s : sessions) {
            table.row(s.user(), s.database(), s.applicationName(), s.clientAddress(), s.clientTls(), s.state(),
                    s.connectedAt().truncatedTo(ChronoUnit.MILLIS), s.backend(), s.hasServer() ? s.serverPid() : null, s.waiting());
        }
        return table.build();
    }

    static ResultTable servers(List<ClientView> sessions) {
        ResultTable.Builder table = ResultTable.of("backend", "server_addr", "server_pid", "tls", "user", "database",
                "client_addr", "state", "recycled", "relogin");
        for (ClientView s : sessions) {
            if (s.hasServer()) {
                table.row(s.backend(), s.serverAddress(), s.serverPid(), s.serverTls(), s.user(), s.database(),
                        s.clientAddress(), s.state(), s.recycled(), s.relogin());
            }
        }
        return table.build();
    }
}
