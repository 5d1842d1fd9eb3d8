package io.memogate.proxy.config;

import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.proxy.admission.DegradePolicy;
import io.memogate.proxy.admission.RunningHold;
import io.memogate.proxy.admission.SearchTiers;
import java.time.Duration;
import java.util.Objects;

/**
 * Compile admission: whether statements pass through the three gateways (DESIGN.md "Gateways"), and how
 * those are sized.
 *
 * <p>The gateways' own settings are the broker's {@link GatewaySettings}, which checks its tiers when it
 * is built; {@code cpus} is kept beside them because in the file it is what the tier limits default
 * from (4 x cpus for SMALL, 1 x cpus for MEDIUM), so a tier limit the file leaves out follows it.
 *
 * @param enabled false relays every statement without a gateway and without computing its estimate
 * @param waitNotice a client whose statement has waited this long in a gateway's queue is sent a NOTICE
 *     saying where it waits; {@link Duration#ZERO} means never. At least 0
 * @param holdWhileRunning a statement planned while it runs (a DO block, a routine call), which keeps its
 *     permits past its first answers, keeps them this long after its admission at most (or until it ends);
 *     {@link Duration#ZERO} releases it at its first answer like any other. At least 0
 * @param cpus the database host's processors, 1..{@value GatewaySettings#MAX_CPUS}
 * @param gatewaySettings t0 and the three tiers' limit, fraction, queue length and timeout
 * @param statementRecords how many of the last statements each server's admission remembers (outcome, tier,
 *     wait, estimate, fingerprint) for the console's SHOW STATEMENTS and the testkit's assertions; 0, the
 *     default, keeps none. 0..{@value #MAX_STATEMENT_RECORDS}
 * @param searchTiers the tiers a statement takes for its predicted join search time, whatever its memory
 * @param degrade whose statements that can never fit the compile-memory target run under tighter planner
 *     settings instead ({@code admission.degrade}); {@link DegradePolicy#OFF} by default
 */
public record AdmissionConfig(boolean enabled, Duration waitNotice, Duration holdWhileRunning, int cpus,
                              GatewaySettings gatewaySettings, int statementRecords, SearchTiers searchTiers,
                              DegradePolicy degrade) {

    /** Long enough that a statement queued behind a short compilation is not worth a notice. */
    public static final Duration DEFAULT_WAIT_NOTICE = Duration.ofSeconds(1);

    /** The admission code's own default, so that proxies built without a file hold as long. */
    public static final Duration DEFAULT_HOLD_WHILE_RUNNING = RunningHold.DEFAULT;

    /**
     * A record holds an estimate and the statement's fingerprint, about a kilobyte for a 16-table join: a
     * million is a gigabyte of heap, more than a test or a look at production should ever cost.
     */
    public static final int MAX_STATEMENT_RECORDS = 1_000_000;

    /**
     * What a file without an {@code admission} section gets: enabled, sized for this machine's processors
     * (the usual case for a proxy beside its server; set {@code cpus} when it is not).
     */
    public static final AdmissionConfig DEFAULTS =
            defaults(Math.min(Runtime.getRuntime().availableProcessors(), GatewaySettings.MAX_CPUS));

    public AdmissionConfig {
        Objects.requireNonNull(waitNotice, "waitNotice");
        Objects.requireNonNull(holdWhileRunning, "holdWhileRunning");
        Objects.requireNonNull(gatewaySettings, "gatewaySettings");
        Objects.requireNonNull(searchTiers, "searchTiers");
        Objects.requireNonNull(degrade, "degrade");
    }

    /** With {@link SearchTiers#DEFAULTS}, nothing degraded. */
    public AdmissionConfig(boolean enabled, Duration waitNotice, Duration holdWhileRunning, int cpus,
                           GatewaySettings gatewaySettings, int statementRecords) {
        this(enabled, waitNotice, holdWhileRunning, cpus, gatewaySettings, statementRecords, SearchTiers.DEFAULTS,
                DegradePolicy.OFF);
    }

    /**
     * Enabled, the default notice delay and hold, no statement records, the default search tiers, nothing
     * degraded, and {@link GatewaySettings#defaults(int)} for {@code cpus}.
     *
     * @throws IllegalArgumentException if {@code cpus} is outside 1..{@value GatewaySettings#MAX_CPUS}
     */
    public static AdmissionConfig defaults(int cpus) {
        return new AdmissionConfig(true, DEFAULT_WAIT_NOTICE, DEFAULT_HOLD_WHILE_RUNNING, cpus,
                GatewaySettings.defaults(cpus), 0);
    }

    public AdmissionConfig withEnabled(boolean enabled) {
        return new AdmissionConfig(enabled, waitNotice, holdWhileRunning, cpus, gatewaySettings, statementRecords,
                searchTiers, degrade);
    }

    public AdmissionConfig withWaitNotice(Duration waitNotice) {
        return new AdmissionConfig(enabled, waitNotice, holdWhileRunning, cpus, gatewaySettings, statementRecords,
                searchTiers, degrade);
    }

    public AdmissionConfig withHoldWhileRunning(Duration holdWhileRunning) {
        return new AdmissionConfig(enabled, waitNotice, holdWhileRunning, cpus, gatewaySettings, statementRecords,
                searchTiers, degrade);
    }

    public AdmissionConfig withGatewaySettings(GatewaySettings gatewaySettings) {
        return new AdmissionConfig(enabled, waitNotice, holdWhileRunning, cpus, gatewaySettings, statementRecords,
                searchTiers, degrade);
    }

    public AdmissionConfig withSearchTiers(SearchTiers searchTiers) {
        return new AdmissionConfig(enabled, waitNotice, holdWhileRunning, cpus, gatewaySettings, statementRecords,
                searchTiers, degrade);
    }

    public AdmissionConfig withDegrade(DegradePolicy degrade) {
        return new AdmissionConfig(enabled, waitNotice, holdWhileRunning, cpus, gatewaySettings, statementRecords,
                searchTiers, degrade);
    }

    public AdmissionConfig withStatementRecords(int statementRecords) {
        return new AdmissionConfig(enabled, waitNotice, holdWhileRunning, cpus, gatewaySettings, statementRecords,
                searchTiers, degrade);
    }
}
