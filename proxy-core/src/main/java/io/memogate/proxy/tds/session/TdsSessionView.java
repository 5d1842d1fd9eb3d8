package io.memogate.proxy.tds.session;

import io.memogate.proxy.admin.ClientView;
import io.memogate.proxy.admission.SessionInfo;

/** SHOW CLIENTS' row for a TDS session: who, where it stands, and each leg's encryption. */
final class TdsSessionView {

    private TdsSessionView() {
    }

    /** Read on the session's event loop. */
    static ClientView of(TdsSession session) {
        String status = switch (session.state) {
            case CONNECTING, PRELOGIN, PRELOGIN_REPLY, SERVER_TLS, LOGIN, REROUTING -> "login";
            case READY -> session.flow.holding() ? "waiting for admission" : session.replies.idle() ? "idle" : "active";
            case CLOSED -> "closed";
        };
        SessionInfo info = session.info;
        var backend = session.services.backend();
        return new ClientView(info == null ? null : info.user(), info == null ? null : info.database(),
                info == null ? null : info.applicationName(), SessionInfo.describe(session.client.remoteAddress()),
                session.tls.clientEncrypted(), status, session.connectedAt, backend.name(),
                session.rerouting.routedAddress().orElse(backend.host() + ":" + backend.port()), session.spid, session.tls.serverEncrypted(),
                session.flow.waitingWhere().orElse(null), 0, "off");
    }
}
