package io.memogate.proxy.pg.session;

import io.memogate.proxy.admin.ConsoleService;
import io.memogate.proxy.admission.AdmissionRouting;
import io.memogate.proxy.session.SessionListener;
import io.memogate.proxy.config.LimitsConfig;
import io.memogate.proxy.config.RecycleConfig;
import io.netty.handler.ssl.SslContext;
import java.util.Optional;
import java.util.function.Function;

/**
 * What every session of one listener shares: routing, the admission of each server a session may be
 * routed to, the listener's TLS, the limits (message size, clients, connect and login timeouts), the
 * admin console and the backend its logins are authenticated by, recycling, what every PostgreSQL session
 * of the proxy shares, and who to tell when sessions come and go. Immutable; a configuration reload builds
 * a new one for new sessions, and open sessions keep theirs.
 *
 * @param console the admin console, served for the database "memogate"; empty: that name is routed like
 *     any other (a proxy started without a console, as in tests and benchmarks)
 * @param defaultBackend the backend console logins are relayed to
 * @param recycle when a session's server connection is replaced, and the auth file for logging in again
 */
public record SessionServices(
        Function<String, Optional<BackendTarget>> router,
        AdmissionRouting admission,
        Optional<SslContext> listenerTls,
        LimitsConfig limits,
        Optional<ConsoleService> console,
        Optional<BackendTarget> defaultBackend,
        RecycleConfig recycle,
        PgShared shared,
        SessionListener listener) {
}
