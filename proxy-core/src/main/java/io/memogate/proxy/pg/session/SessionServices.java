package io.memogate.proxy.pg.session;

import io.memogate.proxy.admin.ConsoleService;
import io.memogate.proxy.admission.AdmissionRouting;
import io.memogate.proxy.session.RecycleCounts;
import io.memogate.proxy.session.SessionListener;
import io.memogate.proxy.config.RecycleConfig;
import io.netty.handler.ssl.SslContext;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;

/**
 * What every session of one listener shares: routing, the backend connector, the admission of each
 * server a session may be routed to, cancel keys, the listener's TLS, the frontend message limit and
 * the backend connect timeout, the admin console and the backend its logins are authenticated by, and
 * who to tell when sessions come and go. Immutable; a configuration reload builds a new one for new
 * sessions, and open sessions keep theirs.
 *
 * @param console the admin console, served for the database "memogate"; empty: that name is routed like
 *     any other (a proxy started without a console, as in tests and benchmarks)
 * @param defaultBackend the backend console logins are relayed to
 * @param recycle when a session's server connection is replaced, and the auth file for logging in again
 * @param recycles counts of replaced connections, shared by every listener and reload
 * @param passwordlessLogins the roles servers let in without a password, warned about once; shared likewise
 */
public record SessionServices(
        Function<String, Optional<BackendTarget>> router,
        BackendConnector connector,
        CancelForwarder cancelForwarder,
        AdmissionRouting admission,
        CancelRegistry cancels,
        Optional<SslContext> listenerTls,
        int maxMessageBytes,
        int maxClientConnections,
        Duration connectTimeout,
        Duration loginTimeout,
        Optional<ConsoleService> console,
        Optional<BackendTarget> defaultBackend,
        RecycleConfig recycle,
        RecycleCounts recycles,
        PasswordlessLogins passwordlessLogins,
        SessionListener listener) {
}
