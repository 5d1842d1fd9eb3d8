package io.memogate.proxy.tds;

import io.memogate.broker.gateway.CompileMemoryRetention;
import io.memogate.broker.probe.ProbeFactory;
import io.memogate.broker.probe.sqlserver.SqlServerProbe;
import io.memogate.estimator.lexer.LexicalAnalyzer;
import io.memogate.estimator.postgres.MemoryCoefficients;
import io.memogate.estimator.postgres.PlannerSettings;
import io.memogate.estimator.postgres.PostgresLexicalRules;
import io.memogate.proxy.admission.AdmissionSupport;
import io.memogate.proxy.admission.ServerKind;
import io.memogate.proxy.postgres.CurrentEstimator;
import java.time.Duration;
import java.util.Map;

/**
 * SQL Server as a kind of server for its admission, until the estimator has a T-SQL dialect: a batch is read
 * as PostgreSQL's planner would read it (the wing first rewrites the T-SQL it cannot read), with no collapse
 * limits and no genetic search, since SQL Server's Cascades optimizer explores the whole join space until its task
 * budget stops it. That weighs the join search's size, not SQL Server's bytes (which saturate at a few MB when the
 * budget ends the search): thresholds are set against these estimates. The broker's probe reads SQL Server's
 * dynamic management views ({@link SqlServerProbe}).
 */
public final class TdsServer implements ServerKind {

    public static final TdsServer KIND = new TdsServer();

    /** Exhaustive join search: every table of a statement in one problem, as Cascades sees it. */
    public static final PlannerSettings WHOLE_SEARCH = new PlannerSettings(64, 64, false, 64, 5, 0, 0);

    private TdsServer() {
    }

    /** The whole search, no catalog, a notice after one second (TDS sends none). */
    public static AdmissionSupport defaultSupport() {
        return new AdmissionSupport(() -> WHOLE_SEARCH, Duration.ofSeconds(1), analyzer());
    }

    /** The lexer the wing's rewritten batches are read with. */
    public static LexicalAnalyzer analyzer() {
        return PostgresLexicalRules.analyzer();
    }

    @Override
    public String name() {
        return "SQL Server";
    }

    /** A compile's memory is given back when its statement is compiled (the plan is cached, the memo freed). */
    @Override
    public CompileMemoryRetention retention() {
        return CompileMemoryRetention.RELEASED_AFTER_COMPILE;
    }

    @Override
    public CurrentEstimator estimator() {
        return new CurrentEstimator(MemoryCoefficients.DEFAULTS);
    }

    @Override
    public ProbeFactory probe() {
        return SqlServerProbe.FACTORY;
    }

    @Override
    public PlannerSettings builtInDefaults() {
        return WHOLE_SEARCH;
    }

    /** The probe reads no setting that bounds SQL Server's search (it has none): the whole search. */
    @Override
    public PlannerSettings defaults(Map<String, String> serverSettings) {
        return WHOLE_SEARCH;
    }
}
