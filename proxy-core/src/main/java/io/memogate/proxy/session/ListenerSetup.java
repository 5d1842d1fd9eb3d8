package io.memogate.proxy.session;

import io.memogate.proxy.admin.ConsoleService;
import io.memogate.proxy.admission.AdmissionRouting;
import io.memogate.proxy.config.ListenerConfig;
import io.memogate.proxy.config.MemogateConfig;
import java.util.Optional;

/**
 * What a wing needs to set up one listener's sessions: the configuration in force (routing, limits,
 * backends' TLS), which listener of it, the admission of each server a session may be routed to, the
 * admin console, and who to tell when sessions come and go.
 *
 * @param index the listener's place in {@code config.listeners()}: messages name {@code listeners[index]}
 * @param console the admin console, served for the database "memogate"; empty: that name is routed like
 *     any other (a proxy started without a console, as in tests and benchmarks)
 */
public record ListenerSetup(MemogateConfig config, int index, AdmissionRouting admission,
                            Optional<ConsoleService> console, SessionListener sessions) {

    public ListenerConfig listener() {
        return config.listeners().get(index);
    }
}
