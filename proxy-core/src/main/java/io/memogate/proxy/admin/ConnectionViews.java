package io.memogate.proxy.admin;

import io.memogate.proxy.config.BackendConfig;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

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

    /**
     * SHOW BACKENDS: the routing in force (the configuration's backends, as a reload left them) with the
     * sessions on each now. A backend a reload removed still has a row while sessions use it.
     */
    static ResultTable backends(List<BackendConfig> configured, List<ClientView> sessions) {
        ResultTable.Builder table = ResultTable.of("backend", "host", "port", "tls", "databases", "default",
                "sessions", "server_connections");
        Set<String> listed = new HashSet<>();
        for (BackendConfig backend : configured) {
            listed.add(backend.name());
            // Over a Unix socket no TLS is negotiated whatever the mode says (prefer means plain there).
            String tls = backend.unixSocket().isPresent() ? "none (Unix socket)" : backend.tls().mode().configName();
            table.row(backend.name(), backend.host(), backend.port(), tls,
                    backend.databases().isEmpty() ? null : String.join(", ", backend.databases()), backend.isDefault(),
                    sessionsOn(backend.name(), sessions, false), sessionsOn(backend.name(), sessions, true));
        }
        sessions.stream().map(ClientView::backend).filter(name -> name != null && !listed.contains(name)).distinct()
                .forEach(removed -> table.row(removed, null, null, null, "(removed from the configuration)", false,
                        sessionsOn(removed, sessions, false), sessionsOn(removed, sessions, true)));
        return table.build();
    }

    private static long sessionsOn(String backend, List<ClientView> sessions, boolean withServer) {
        return sessions.stream().filter(s -> backend.equals(s.backend()) && (!withServer || s.hasServer())).count();
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
