package io.memogate.proxy.mysql.session;

import io.memogate.proxy.admin.ClientView;
import io.memogate.proxy.admission.SessionInfo;

/** What the console's SHOW CLIENTS shows of a MySQL session; read on the session's event loop. */
final class SessionView {

    private SessionView() {
    }

    static ClientView of(MySqlSession session) {
        String status = switch (session.state) {
            case CONNECTING, GREETING, AUTHENTICATING -> "login";
            case READY -> session.flow.holding() ? "waiting for admission"
                    : session.tracker.idle() ? "idle" : "active";
            case CONSOLE -> "console";
            case CLOSED -> "closed";
        };
        SessionInfo info = session.info;
        var backend = session.services.backend();
        boolean console = session.state == MySqlSession.State.CONSOLE;
        return new ClientView(info == null ? null : info.user(), info == null ? null : info.database(),
                info == null ? null : info.applicationName(), SessionInfo.describe(session.client.remoteAddress()),
                session.login.clientEncrypted(), status, session.connectedAt, console ? null : backend.name(),
                backend.host() + ":" + backend.port(), (int) session.threadId, session.login.serverEncrypted(),
                session.flow.waitingWhere().orElse(null), 0, "off");
    }
}
