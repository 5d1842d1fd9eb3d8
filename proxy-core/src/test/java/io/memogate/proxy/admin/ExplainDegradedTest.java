package io.memogate.proxy.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.estimator.Catalog;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.postgres.PlannerSettings;
import io.memogate.proxy.admission.AdmissionControl;
import io.memogate.proxy.admission.DegradePolicy;
import io.memogate.proxy.admission.SearchTiers;
import io.memogate.proxy.postgres.PostgresServer;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** EXPLAIN ADMISSION's degraded column: what a statement that can never fit the target would run under. */
class ExplainDegradedTest {

    private static final PlannerSettings WIDE = PlannerSettings.DEFAULTS.with("join_collapse_limit", "20")
            .with("from_collapse_limit", "20").with("geqo_threshold", "20");
    private static final String STAR = "select count(*) from t0" + IntStream.range(1, 12)
            .mapToObj(i -> " join t" + i + " on t0.k" + i + " = t" + i + ".a").collect(Collectors.joining());

    private AdmissionControl control;

    @AfterEach
    void close() {
        control.close();
    }

    private String degraded(long target, DegradePolicy policy, String sql) {
        control = AdmissionControl.builder(AdmissionControl.ONLY_SERVER, PostgresServer.KIND, GatewaySettings.defaults(2))
                .staticTargetBytes(target).degrade(() -> policy).build();
        ResultTable table = AdmissionViews.explain(new CompileEstimator(), WIDE, sql, Catalog.NONE, "none",
                Optional.of(control), SearchTiers.DEFAULTS);
        return table.rows().get(0).get(table.columns().indexOf("degraded"));
    }

    @Test
    void namesTheSettingsAStatementOverTheTargetRunsUnder() {
        assertThat(degraded(8L << 20, new DegradePolicy(true, Set.of(), Set.of()), STAR))
                .matches("join_collapse_limit = \\d+, from_collapse_limit = \\d+: \\d+ kB");
    }

    @Test
    void saysWhenDegradingIsOff() {
        assertThat(degraded(8L << 20, DegradePolicy.OFF, STAR)).endsWith("(admission.degrade is off: admitted alone instead)");
    }

    @Test
    void isEmptyForAStatementThatFits() {
        assertThat(degraded(1L << 30, new DegradePolicy(true, Set.of(), Set.of()), STAR)).isNull();
    }
}
