package io.memogate.proxy.tds;

import io.memogate.broker.gateway.CompileMemoryRetention;
import io.memogate.broker.probe.ProbeFactory;
import io.memogate.broker.probe.sqlserver.SqlServerProbe;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.sqlserver.SqlServerCoefficients;
import io.memogate.estimator.sqlserver.SqlServerDialect;
import io.memogate.estimator.sqlserver.SqlServerSettings;
import io.memogate.estimator.sqlserver.TsqlLexicalRules;
import io.memogate.proxy.admission.AdmissionSupport;
import io.memogate.proxy.admission.CurrentDialectEstimator;
import io.memogate.proxy.admission.EstimatorInForce;
import io.memogate.proxy.admission.ServerKind;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;

/**
 * SQL Server as a kind of server for its admission: batches and RPC texts are estimated by the estimator's T-SQL
 * dialect ({@link SqlServerDialect}: T-SQL read as written, SQL Server's Cascades search bounded by its task
 * budget), whose bytes saturate at a few MB per statement as SQL Server's compile memory does; its coefficients
 * are the configuration's {@code estimator.sqlserverCoefficients}, or defaults from published showplans. No
 * session setting changes the model. The broker's probe reads SQL Server's dynamic management views
 * ({@link SqlServerProbe}).
 */
public final class TdsServer implements ServerKind {

    public static final TdsServer KIND = new TdsServer();

    private TdsServer() {
    }

    /** SQL Server's settings, no catalog, a notice after one second (TDS sends none). */
    public static AdmissionSupport defaultSupport() {
        return new AdmissionSupport(() -> SqlServerSettings.DEFAULTS, Duration.ofSeconds(1),
                TsqlLexicalRules.analyzer());
    }

    /** The estimator of SQL Server's statements with the coefficients in force, read at each statement. */
    public static EstimatorInForce estimator(Supplier<SqlServerCoefficients> coefficients) {
        return new CurrentDialectEstimator<>(coefficients, c -> new CompileEstimator(new SqlServerDialect(c)));
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

    /** The dialect's default coefficients, from published SQL Server 2019 showplans (not measured here). */
    @Override
    public EstimatorInForce estimator() {
        return estimator(() -> SqlServerCoefficients.DEFAULTS);
    }

    @Override
    public ProbeFactory probe() {
        return SqlServerProbe.FACTORY;
    }

    @Override
    public SqlServerSettings builtInDefaults() {
        return SqlServerSettings.DEFAULTS;
    }

    /** The probe reads no setting that bounds SQL Server's search (it has none), and none changes the model. */
    @Override
    public SqlServerSettings defaults(Map<String, String> serverSettings) {
        return SqlServerSettings.DEFAULTS;
    }
}
