package io.memogate.proxy.pg.session;

import io.memogate.proxy.admission.SessionInfo;
import io.memogate.proxy.config.Durations;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes a connection that sends no StartupMessage within limits.loginTimeout: nothing but a silent
 * connection, a stalled TLS handshake or part of a startup packet. It is closed without a message, as
 * PostgreSQL closes it, so that such connections cannot hold the slots of limits.maxClientConnections.
 * From the StartupMessage on, the server's authentication_timeout bounds the login. On the session's
 * event loop only.
 */
final class LoginTimer {

    private static final Logger log = LoggerFactory.getLogger(LoginTimer.class);

    private final PgSession session;
    /** Null before the start and once stopped. */
    private ScheduledFuture<?> timer;

    LoginTimer(PgSession session) {
        this.session = session;
    }

    void start() {
        timer = session.client.eventLoop().schedule(this::timedOut, session.services.limits().loginTimeout().toNanos(),
                TimeUnit.NANOSECONDS);
    }

    void stop() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }

    private void timedOut() {
        if (session.state == PgSession.State.STARTUP) {
            log.info("closing client {}: no startup packet within {} (limits.loginTimeout)",
                    SessionInfo.describe(session.client.remoteAddress()), Durations.format(session.services.limits().loginTimeout()));
            session.close();
        }
    }
}
