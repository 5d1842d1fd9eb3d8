package io.memogate.proxy.mysql;

import io.memogate.broker.gateway.CompileMemoryRetention;
import io.memogate.broker.probe.ProbeFactory;
import io.memogate.broker.probe.mysql.MySqlProbe;
import io.memogate.estimator.dialect.DialectSettings;
import io.memogate.estimator.mysql.MySqlCoefficients;
import io.memogate.estimator.mysql.MySqlDialect;
import io.memogate.estimator.mysql.MySqlLexicalRules;
import io.memogate.estimator.mysql.OptimizerSettings;
import io.memogate.proxy.admission.AdmissionSupport;
import io.memogate.proxy.admission.EstimatorInForce;
import io.memogate.proxy.admission.ServerKind;
import java.time.Duration;
import java.util.Map;

/**
 * MySQL and MariaDB as a kind of server for their admission: sessions' settings are the optimizer variables of
 * {@link OptimizerSettings} (MariaDB's defaults until the server's own are read), statements are estimated by
 * the {@link MySqlDialect}, and the optimizer's memory is a per-statement arena given back when the statement
 * ends. This build has no probe of the server's memory: a configured monitor makes a broker whose every poll
 * fails with a message saying so, and the gateways keep the static target ({@code broker.staticTarget}).
 */
public final class MySqlServer implements ServerKind {

    public static final MySqlServer KIND = new MySqlServer();

    private MySqlServer() {
    }

    /** MariaDB's built-in optimizer defaults, no catalog, a notice after one second. */
    public static AdmissionSupport defaultSupport() {
        return new AdmissionSupport(() -> OptimizerSettings.MARIADB_DEFAULTS, Duration.ofSeconds(1),
                MySqlLexicalRules.analyzer());
    }

    @Override
    public String name() {
        return "MySQL";
    }

    /**
     * The optimizer allocates in the statement's arena ({@code THD::main_mem_root}), which the server frees when
     * the statement ends, to malloc, which keeps it for the connection's thread.
     */
    @Override
    public CompileMemoryRetention retention() {
        return CompileMemoryRetention.KEPT_BY_THE_ALLOCATOR;
    }

    /** The dialect's default coefficients, fitted on MariaDB 10.11 (bench/log/mysql-optimizer.md). */
    @Override
    public EstimatorInForce estimator() {
        return new CurrentMySqlEstimator(() -> MySqlCoefficients.DEFAULTS);
    }

    @Override
    public ProbeFactory probe() {
        return MySqlProbe.FACTORY;
    }

    @Override
    public OptimizerSettings builtInDefaults() {
        return OptimizerSettings.MARIADB_DEFAULTS;
    }

    /** The server's optimizer_search_depth, optimizer_prune_level and optimizer_switch over MariaDB's defaults. */
    @Override
    public OptimizerSettings defaults(Map<String, String> serverSettings) {
        OptimizerSettings settings = OptimizerSettings.MARIADB_DEFAULTS;
        for (Map.Entry<String, String> setting : serverSettings.entrySet()) {
            settings = settings.with(setting.getKey(), setting.getValue());
        }
        return settings;
    }

    /** {@code settings} as MySQL's optimizer settings; another kind's are a wiring mistake, refused. */
    public static OptimizerSettings optimizerSettings(DialectSettings settings) {
        if (settings instanceof OptimizerSettings optimizer) {
            return optimizer;
        }
        throw new IllegalStateException("a MySQL session takes MySQL's optimizer settings, was "
                + (settings == null ? "none" : settings.getClass().getSimpleName()));
    }
}
