package io.memogate.proxy.admission;

import java.util.Objects;

/**
 * The admission of one database server, as a session routed to it uses it: the hook its statements ask,
 * and what its sessions' settings start from (that server's planner defaults, role settings and catalogs).
 * Each server has its own, so that a storm on one queues on that server's gateways only.
 */
public record ServerAdmission(AdmissionHook hook, AdmissionSupport support) {

    public ServerAdmission {
        Objects.requireNonNull(hook, "hook");
        Objects.requireNonNull(support, "support");
    }
}
