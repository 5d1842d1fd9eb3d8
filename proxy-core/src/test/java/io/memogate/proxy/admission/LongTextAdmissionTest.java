package io.memogate.proxy.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.broker.gateway.GatewayListener;
import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.Gateways;
import io.memogate.broker.gateway.LocalGateways;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.postgres.PlannerSettings;
import io.memogate.proxy.postgres.catalog.IndexCatalogs;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A long text is estimated off the caller's thread (the session's event loop, which other sessions share),
 * and then admitted as any other; the usual short one is estimated where it arrives, with no hop.
 */
class LongTextAdmissionTest {

    private final List<Thread> estimatedOn = new CopyOnWriteArrayList<>();
    private final CompileEstimator estimator = new CompileEstimator();
    private final Gateways gateways = new LocalGateways(GatewaySettings.defaults(2), 1L << 30, System::nanoTime,
            (task, delayNanos) -> () -> { }, GatewayListener.NONE);
    private final GatedAdmission admission = new GatedAdmission(() -> {
        estimatedOn.add(Thread.currentThread());
        return estimator;
    }, IndexCatalogs.NONE, gateways, estimate -> { }, closed -> { }, RunningHold.UNTIL_END);

    @Test
    void aLongTextIsEstimatedOffTheCallersThreadAndStillTakesItsGateway() throws Exception {
        String join = eightTableJoin();
        String padded = join + " -- " + "x".repeat(GatedAdmission.OFF_LOOP_CHARS);

        AdmittedStatement admitted = admit(padded).decision().toCompletableFuture().get(10, TimeUnit.SECONDS);

        assertThat(estimatedOn).singleElement().isNotSameAs(Thread.currentThread());
        assertThat(admitted).isNotSameAs(AdmittedStatement.UNGATED);
        admitted.signal(ReleaseSignal.REQUEST_DONE);

        estimatedOn.clear();
        admit(join).decision().toCompletableFuture().get(10, TimeUnit.SECONDS).signal(ReleaseSignal.REQUEST_DONE);
        assertThat(estimatedOn).singleElement().isSameAs(Thread.currentThread());
    }

    /** A session remembers a prepared statement that bypasses: a long one is known to only once estimated. */
    @Test
    void aLongTextThatBypassesSaysSoOnceDecided() throws Exception {
        Admission bypassing = admit("select 1 -- " + "x".repeat(GatedAdmission.OFF_LOOP_CHARS));
        bypassing.decision().toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertThat(bypassing.bypassed()).isTrue();

        Admission gated = admit(eightTableJoin() + " -- " + "x".repeat(GatedAdmission.OFF_LOOP_CHARS));
        gated.decision().toCompletableFuture().get(10, TimeUnit.SECONDS).signal(ReleaseSignal.REQUEST_DONE);
        assertThat(gated.bypassed()).isFalse();
        assertThat(admit("select 1").bypassed()).as("a short one, at once").isTrue();
    }

    private Admission admit(String sql) {
        return admission.admit(new StatementRequest(sql, AdmissionPoint.STATEMENT_TEXT, new SessionInfo("analyst",
                "warehouse", "report-tool", new InetSocketAddress("10.1.2.3", 50000)), 7, PlannerSettings.DEFAULTS));
    }

    private static String eightTableJoin() {
        StringBuilder sql = new StringBuilder("select count(*) from t0");
        for (int i = 1; i < 8; i++) {
            sql.append(" join t").append(i).append(" on t0.k").append(i).append(" = t").append(i).append(".a");
        }
        return sql.toString();
    }
}
