package io.memogate.proxy.mysql.session;

import io.memogate.proxy.admission.AdmissionRouting;
import io.memogate.proxy.config.BackendConfig;
import io.memogate.proxy.config.LimitsConfig;
import io.memogate.proxy.session.SessionListener;

/**
 * What every session of one MySQL listener shares: the server its sessions are relayed to (the default
 * backend: the schema a client names comes after the server's greeting, so routing by it is still to come),
 * the admission of that server, the limits, and who to tell when sessions come and go. A reload builds a new
 * one for new sessions.
 */
public record MySqlServices(BackendConfig backend, AdmissionRouting admission, LimitsConfig limits,
                            MySqlShared shared, SessionListener listener) {
}
