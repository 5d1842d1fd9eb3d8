package io.memogate.proxy.mysql.session;

import io.memogate.proxy.admin.ConsoleService;
import io.memogate.proxy.admission.AdmissionRouting;
import io.memogate.proxy.config.BackendConfig;
import io.memogate.proxy.config.LimitsConfig;
import io.memogate.proxy.session.SessionListener;
import io.netty.handler.ssl.SslContext;
import java.util.Optional;

/**
 * What every session of one MySQL listener shares: the server its sessions are relayed to (the default
 * backend: the schema a client names comes after the server's greeting, so routing by it is still to come),
 * the admission of that server, the limits, TLS on each leg, and who to tell when sessions come and go. A
 * reload builds a new one for new sessions.
 *
 * @param clientTls the listener's TLS, offered to clients; empty when the listener has none
 * @param serverTls TLS toward the backend, as its tls.mode says; empty for disable
 * @param console the admin console, served for the schema "memogate"; empty: that name is relayed like any
 *     other (a proxy started without a console, as in tests and benchmarks)
 */
public record MySqlServices(BackendConfig backend, AdmissionRouting admission, LimitsConfig limits,
                            MySqlShared shared, SessionListener listener, Optional<SslContext> clientTls,
                            Optional<SslContext> serverTls, Optional<ConsoleService> console) {
}
