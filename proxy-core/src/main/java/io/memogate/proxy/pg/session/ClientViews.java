package io.memogate.proxy.pg.session;

import io.memogate.proxy.admin.ClientView;
import io.memogate.proxy.admission.SessionInfo;
import io.memogate.proxy.pg.message.backend.BackendKeyData;
import io.netty.handler.ssl.SslHandler;

/** A session as SHOW CLIENTS shows it, read from the session on its own event loop; writes nothing. */
final class ClientViews {

    private ClientViews() {
    }

    /** What SHOW CLIENTS shows of {@code session}; only on the session's event loop ({@link PgSession#describe}). */
    static ClientView of(PgSession session) {
        SessionInfo who = session.info;
        BackendTarget target = session.target;
        BackendKeyData serverKey = session.serverKey();
        boolean serverTls = session.backend() != null && session.backend().pipeline().get(SslHandler.class) != null;
        return new ClientView(who == null ? null : who.user(), who == null ? null : who.database(),
                who == null ? null : who.applicationName(), SessionInfo.describe(session.client.remoteAddress()),
                session.client.pipeline().get(SslHandler.class) != null,
                SessionStates.describe(session.state, session.admission.readingText(), session.admission.holding(),
                        session.tracker.isIdle(), session.responses.transactionStatus()),
                session.connectedAt, session.state == PgSession.State.CONSOLE || target == null ? null : target.name(),
                target == null ? null : target.address(), serverKey == null ? 0 : serverKey.processId(), serverTls,
                session.admission.waitingWhere().orElse(null), session.recycler.recycled(),
                session.recycler.reloginDescription());
    }
}
