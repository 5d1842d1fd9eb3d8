package io.memogate.testkit;

import io.memogate.broker.BrokerSettings;
import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.Tier;
import io.memogate.broker.gateway.TierSettings;
import io.memogate.proxy.config.AdmissionConfig;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How the Memogate in front of a test's database is set up, from Java: its gateways (t0, each tier's limit,
 * fraction, queue and timeout), its compile-memory target, the roles allowed on its admin console, and how many
 * statements it remembers for the assertions. Immutable; each {@code with} returns a changed copy.
 *
 * <p>The target is static (the broker's {@code staticTarget}): a test wants the same tier for the same
 * statement on every run, whatever else the machine is doing. With {@link #withMonitor} the in-process proxy's
 * broker also polls the server and moves the target, as in production.
 *
 * @param gateways t0 and the three tiers
 * @param targetBytes the compile-memory target the thresholds t1 and t2 are fractions of
 * @param monitor the broker's role and password on the server; empty: the target stays static
 * @param consoleUsers roles allowed on the admin console (the virtual database {@code memogate})
 * @param statementRecords how many statements each server's admission remembers, the last ones
 */
public record MemogateSettings(GatewaySettings gateways, long targetBytes, Optional<Credentials> monitor,
                               List<String> consoleUsers, int statementRecords) {

    /** Enough for a test class's statements; older ones are dropped and counted. */
    public static final int DEFAULT_STATEMENT_RECORDS = 10_000;

    /** A role and its password. */
    public record Credentials(String user, String password) {
        public Credentials {
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(password, "password");
        }

        @Override
        public String toString() {
            return "Credentials[user=" + user + "]"; // never the password, which test logs would keep
        }
    }

    public MemogateSettings {
        Objects.requireNonNull(gateways, "gateways");
        Objects.requireNonNull(monitor, "monitor");
        consoleUsers = List.copyOf(consoleUsers);
        if (targetBytes <= 0) {
            throw new IllegalArgumentException("the compile-memory target must be positive, was " + targetBytes);
        }
        if (statementRecords < 1 || statementRecords > AdmissionConfig.MAX_STATEMENT_RECORDS) {
            throw new IllegalArgumentException("statementRecords must be in 1.." + AdmissionConfig.MAX_STATEMENT_RECORDS
                    + ", was " + statementRecords);
        }
    }

    /**
     * Production's defaults for a 2-CPU database host (tier limits 8, 2 and 1; fractions 0.25 and 0.5; t0 1 MiB)
     * and its default static target, 256 MiB: a statement needs MEDIUM from 64 MiB and LARGE from 128 MiB.
     */
    public static MemogateSettings defaults() {
        return new MemogateSettings(GatewaySettings.defaults(2), BrokerSettings.DEFAULT_STATIC_TARGET_BYTES,
                Optional.empty(), List.of(), DEFAULT_STATEMENT_RECORDS);
    }

    /** The compile-memory target: at an idle server SMALL ends at target x F_small, MEDIUM at target x F_medium. */
    public MemogateSettings withTarget(long bytes) {
        return new MemogateSettings(gateways, bytes, monitor, consoleUsers, statementRecords);
    }

    /** t0: statements estimated below it take no gateway. */
    public MemogateSettings withStaticThreshold(long bytes) {
        return withGateways(gateways.withStaticThreshold(bytes));
    }

    /** How many statements may compile in each tier at once. */
    public MemogateSettings withTierLimits(int small, int medium, int large) {
        return withGateways(gateways
                .with(Tier.SMALL, gateways.small().withLimit(small))
                .with(Tier.MEDIUM, gateways.medium().withLimit(medium))
                .with(Tier.LARGE, gateways.large().withLimit(large)));
    }

    /** F_small and F_medium: the thresholds t1 and t2 as shares of the target. */
    public MemogateSettings withFractions(double small, double medium) {
        return withGateways(gateways
                .with(Tier.SMALL, gateways.small().withFraction(small))
                .with(Tier.MEDIUM, gateways.medium().withFraction(medium)));
    }

    /** How long a statement may wait in {@code tier}'s queue, and how many may wait there. */
    public MemogateSettings withQueue(Tier tier, int maxQueue, Duration timeout) {
        TierSettings settings = gateways.tier(tier);
        return withGateways(gateways.with(tier, settings.withMaxQueue(maxQueue).withTimeout(timeout)));
    }

    public MemogateSettings withGateways(GatewaySettings gateways) {
        return new MemogateSettings(gateways, targetBytes, monitor, consoleUsers, statementRecords);
    }

    /** The broker polls the server with this role (it needs pg_monitor) and sets the target from its memory. */
    public MemogateSettings withMonitor(String user, String password) {
        return new MemogateSettings(gateways, targetBytes, Optional.of(new Credentials(user, password)),
                consoleUsers, statementRecords);
    }

    public MemogateSettings withConsoleUsers(String... users) {
        return new MemogateSettings(gateways, targetBytes, monitor, List.of(users), statementRecords);
    }

    public MemogateSettings withStatementRecords(int count) {
        return new MemogateSettings(gateways, targetBytes, monitor, consoleUsers, count);
    }
}
