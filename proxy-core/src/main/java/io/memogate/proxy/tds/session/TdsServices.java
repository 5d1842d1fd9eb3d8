package io.memogate.proxy.tds.session;

import io.memogate.proxy.admission.AdmissionRouting;
import io.memogate.proxy.config.BackendConfig;
import io.memogate.proxy.config.LimitsConfig;
import io.memogate.proxy.session.ServerConnector;
import io.memogate.proxy.session.SessionListener;
import io.memogate.proxy.tds.tls.TdsTls;

/**
 * What every session of one TDS listener shares: the server its sessions are relayed to (the default backend:
 * the database a client names comes in LOGIN7, after PRELOGIN has already gone to a server), the admission of
 * that server, the limits, the connector of the wing, who to tell when sessions come and go, and TLS on each
 * leg. A reload builds a new one for new sessions.
 */
public record TdsServices(BackendConfig backend, AdmissionRouting admission, LimitsConfig limits,
                          ServerConnector connector, SessionListener listener, TdsTls tls) {
}
