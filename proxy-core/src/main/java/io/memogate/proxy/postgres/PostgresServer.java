package io.memogate.proxy.postgres;

import io.memogate.broker.gateway.CompileMemoryRetention;
import io.memogate.broker.probe.ProbeFactory;
import io.memogate.broker.probe.postgres.PostgresProbe;
import io.memogate.estimator.dialect.DialectSettings;
import io.memogate.estimator.postgres.MemoryCoefficients;
import io.memogate.estimator.postgres.PlannerSettings;
import io.memogate.estimator.postgres.PostgresLexicalRules;
import io.memogate.proxy.admission.AdmissionSupport;
import io.memogate.proxy.admission.Degradation;
import io.memogate.proxy.admission.LoginSettings;
import io.memogate.proxy.admission.ServerKind;
import io.memogate.proxy.postgres.catalog.RoleSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * PostgreSQL as a kind of server for its admission: probed by {@link PostgresProbe}, its sessions' settings
 * the planner settings of {@link PlannerSettings}, and what it gives a session at login its
 * {@link RoleSettings} (ALTER ROLE / ALTER DATABASE ... SET).
 */
public final class PostgresServer implements ServerKind {

    public static final PostgresServer KIND = new PostgresServer();

    private PostgresServer() {
    }

    /** PostgreSQL's built-in planner defaults, no role settings or catalog, a notice after one second. */
    public static AdmissionSupport defaultSupport() {
        return new AdmissionSupport(() -> PlannerSettings.DEFAULTS, Duration.ofSeconds(1),
                PostgresLexicalRules.analyzer());
    }

    @Override
    public String name() {
        return "PostgreSQL";
    }

    /** The planner frees its memory to malloc, which keeps it: a backend holds its largest plan's until it exits. */
    @Override
    public CompileMemoryRetention retention() {
        return CompileMemoryRetention.RETAINED_UNTIL_CONNECTION_ENDS;
    }

    @Override
    public CurrentEstimator estimator() {
        return new CurrentEstimator(MemoryCoefficients.DEFAULTS);
    }

    @Override
    public ProbeFactory probe() {
        return PostgresProbe.FACTORY;
    }

    @Override
    public PlannerSettings builtInDefaults() {
        return PlannerSettings.DEFAULTS;
    }

    /** {@link DegradeLadder}. */
    @Override
    public List<Degradation> degradeLadder(DialectSettings session) {
        return session instanceof PlannerSettings planner ? DegradeLadder.of(planner) : List.of();
    }

    /** The server's own defaults of the settings the planner model uses, over PostgreSQL's built-in ones. */
    @Override
    public PlannerSettings defaults(Map<String, String> serverSettings) {
        PlannerSettings settings = PlannerSettings.DEFAULTS;
        for (Map.Entry<String, String> setting : serverSettings.entrySet()) {
            settings = settings.with(setting.getKey(), setting.getValue());
        }
        return settings;
    }

    /**
     * {@code settings} as PostgreSQL's planner settings. Another kind's are a wiring mistake (a PostgreSQL
     * session routed to a server of another kind), refused rather than silently read as defaults.
     */
    public static PlannerSettings plannerSettings(DialectSettings settings) {
        if (settings instanceof PlannerSettings planner) {
            return planner;
        }
        throw new IllegalStateException("a PostgreSQL session takes PostgreSQL's planner settings, was "
                + (settings == null ? "none" : settings.getClass().getSimpleName()));
    }

    /** {@code read} as PostgreSQL's role settings; {@link RoleSettings#NONE} when none were read. */
    public static RoleSettings roleSettings(LoginSettings read) {
        return read instanceof RoleSettings roles ? roles : RoleSettings.NONE;
    }
}
