package io.memogate.proxy.admission;

import java.util.Objects;
import java.util.Set;

/**
 * Whose statements may run under tighter planner settings when they can never fit the compile-memory target
 * ({@link Degradation}), instead of being admitted alone after everything else: opt-in, for the roles or
 * application names listed, or every session when both lists are empty.
 *
 * @param enabled false: no statement is degraded
 * @param roles the roles (login user names) whose statements may be degraded
 * @param applicationNames the {@code application_name}s whose statements may be degraded
 */
public record DegradePolicy(boolean enabled, Set<String> roles, Set<String> applicationNames) {

    /** The default: nothing is degraded. */
    public static final DegradePolicy OFF = new DegradePolicy(false, Set.of(), Set.of());

    public DegradePolicy {
        roles = Set.copyOf(Objects.requireNonNull(roles, "roles"));
        applicationNames = Set.copyOf(Objects.requireNonNull(applicationNames, "applicationNames"));
    }

    /** Whether statements of {@code session} may be degraded. */
    public boolean appliesTo(SessionInfo session) {
        if (!enabled) {
            return false;
        }
        if (roles.isEmpty() && applicationNames.isEmpty()) {
            return true;
        }
        return session != null && (roles.contains(session.user())
                || session.applicationName() != null && applicationNames.contains(session.applicationName()));
    }
}
