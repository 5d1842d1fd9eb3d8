package io.memogate.testkit;

import io.memogate.proxy.admission.AdmissionControl;
import io.memogate.proxy.admission.ServerAdmissions;
import io.memogate.proxy.admission.StatementRecord;
import io.memogate.proxy.admission.StatementRecords;
import io.memogate.proxy.cli.RunningProxy;
import io.memogate.proxy.config.AdminConfig;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Memogate running inside the test JVM in front of a test's database, on free ports of the loopback address:
 * the same proxy as {@code memogate run}, configured from Java ({@link MemogateSettings}), remembering the
 * statements it saw for the assertions. Closing it closes every session still open through it.
 */
public final class MemogateProxy implements AutoCloseable {

    private final RunningProxy proxy;
    private final TargetDatabase target;

    private MemogateProxy(RunningProxy proxy, TargetDatabase target) {
        this.proxy = proxy;
        this.target = target;
    }

    /** Starts a proxy in front of {@code target}; returns once it accepts connections. */
    public static MemogateProxy start(TargetDatabase target, MemogateSettings settings) {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(settings, "settings");
        try {
            return new MemogateProxy(RunningProxy.start(InProcessConfig.of(target, settings)), target);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("Memogate could not start in front of " + target.host() + ":"
                    + target.port() + ": " + e.getMessage(), e);
        }
    }

    /** The port clients connect to. */
    public int port() {
        return proxy.server().port();
    }

    /** The target's database through Memogate; user and password are the server's, as without it. */
    public String jdbcUrl() {
        return jdbcUrl(target.database());
    }

    /** {@code database} of the target's server, through Memogate. */
    public String jdbcUrl(String database) {
        return "jdbc:postgresql://" + InProcessConfig.HOST + ":" + port() + "/" + database;
    }

    /**
     * The admin console (SHOW TIERS, SHOW QUEUE, SHOW STATS ...), for the roles {@link MemogateSettings#consoleUsers()}
     * allows; the console checks their password with the server.
     */
    public String consoleJdbcUrl() {
        return jdbcUrl(AdminConfig.CONSOLE_DATABASE);
    }

    /** Prometheus text of Memogate's meters. */
    public URI metricsUrl() {
        return proxy.metrics().metricsUrl().orElseThrow();
    }

    public URI healthUrl() {
        return proxy.metrics().healthUrl().orElseThrow();
    }

    public TargetDatabase target() {
        return target;
    }

    /** The statements admission saw since the start or the last {@link #clearStatements()}, oldest first. */
    public Statements statements() {
        List<StatementRecord> all = new ArrayList<>();
        long dropped = 0;
        for (StatementRecords records : records()) {
            all.addAll(records.snapshot());
            dropped += records.dropped();
        }
        return new Statements(all, dropped);
    }

    /** Forgets the statements seen so far: what a test asserts on after this is its own. */
    public void clearStatements() {
        records().forEach(StatementRecords::clear);
    }

    /** The proxy itself, for what the testkit does not wrap (its admission, its configuration in force). */
    public RunningProxy proxy() {
        return proxy;
    }

    private List<StatementRecords> records() {
        return proxy.admission().map(ServerAdmissions::all).orElse(List.of()).stream()
                .map(AdmissionControl::statements).toList();
    }

    @Override
    public void close() {
        proxy.close();
    }
}
