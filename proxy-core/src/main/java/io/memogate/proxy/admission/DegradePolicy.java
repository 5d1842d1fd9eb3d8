package io.memogate.proxy.admission;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Whose statements may run under tighter planner settings ({@link Degradation}) instead of being admitted alone
 * after everything else when they can never fit the compile-memory target, or instead of waiting longer than
 * {@code after} for their gateways: opt-in, for the roles or application names listed, or every session when both
 * lists are empty.
 *
 * @param enabled false: no statement is degraded
 * @param roles the roles (login user names) whose statements may be degraded
 * @param applicationNames the {@code application_name}s whose statements may be degraded
 * @param after how long a statement that fits the target may wait in a queue before it runs degraded instead;
 *     empty: statements that fit wait as long as their tier's timeout, and only those that never fit degrade
 */
public record DegradePolicy(boolean enabled, Set<String> roles, Set<String> applicationNames,
                            Optional<Duration> after) {

    /** The default: nothing is degraded. */
    public static final DegradePolicy OFF = new DegradePolicy(false, Set.of(), Set.of());

    public DegradePolicy {
        roles = Set.copyOf(Objects.requireNonNull(roles, "roles"));
        applicationNames = Set.copyOf(Objects.requireNonNull(applicationNames, "applicationNames"));
        Objects.requireNonNull(after, "after");
        if (after.isPresent() && after.get().isNegative()) {
            throw new IllegalArgumentException("admission.degrade.after must be >= 0, was " + after.get());
        }
    }

    /** Only statements that can never fit the target are degraded. */
    public DegradePolicy(boolean enabled, Set<String> roles, Set<String> applicationNames) {
        this(enabled, roles, applicationNames, Optional.empty());
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

    /** How long a statement of {@code session} waits before it degrades; empty when it never degrades for waiting. */
    public Optional<Duration> afterFor(SessionInfo session) {
        return appliesTo(session) ? after : Optional.empty();
    }
}
