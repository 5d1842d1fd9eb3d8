package io.memogate.proxy.it;

import static io.memogate.proxy.it.DegradeIT.assertWideSettings;
import static io.memogate.proxy.it.DegradeIT.dataRowValues;
import static io.memogate.proxy.it.DegradeIT.direct;
import static io.memogate.proxy.it.DegradeIT.run;
import static io.memogate.proxy.it.DegradeIT.star;
import static io.memogate.proxy.it.DegradeIT.wideClient;
import static io.memogate.proxy.it.DegradeIT.wideEstimate;
import static io.memogate.proxy.it.DegradePredictedIT.own;
import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.Tier;
import io.memogate.broker.redis.FleetSettings;
import io.memogate.broker.redis.RedisGateways;
import io.memogate.broker.redis.RedisServer;
import io.memogate.proxy.admission.AdmissionControl;
import io.memogate.proxy.admission.DegradePolicy;
import io.memogate.proxy.admission.Degraded;
import io.memogate.proxy.admission.WaitPredictor;
import io.memogate.proxy.it.RawPgClient.Message;
import io.memogate.proxy.postgres.PostgresServer;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * admission.degrade.after with a predicted wait in a fleet: two proxies share their gateways through Redis. A DO
 * block holds the fleet's LARGE through the first; through the second, the star of {@link DegradeIT} waits behind
 * it at the place Redis gives it, and the second proxy's own history of LARGE holds (an hour each, on a clock of
 * the test's, as in {@link DegradePredictedIT}) predicts a wait far past after: it runs degraded at once, with its
 * result and one NOTICE, while the first proxy's statement still holds LARGE.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class FleetDegradePredictedIT {

    private static final Duration LONG_AFTER = Duration.ofMinutes(10);

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private final List<AutoCloseable> opened = new ArrayList<>();

    @BeforeEach
    void schema(EmbeddedPostgres pg) throws SQLException {
        DegradeIT.ensure(pg);
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : opened.reversed()) {
            c.close();
        }
    }

    /** A member of fleet {@code fleet} with a target the star fits but only in LARGE; holds timed on {@code holdClock}. */
    private AdmissionControl member(String fleet, long target, AtomicLong holdClock) {
        DegradePolicy policy = new DegradePolicy(true, Set.of(), Set.of(), Optional.of(LONG_AFTER));
        FleetSettings settings = new FleetSettings(redis.uri(), fleet);
        AdmissionControl control = AdmissionControl.builder(AdmissionControl.ONLY_SERVER, PostgresServer.KIND,
                        GatewaySettings.defaults(2))
                .staticTargetBytes(target).degrade(() -> policy).holdWhileRunning(() -> Duration.ofMinutes(10))
                .holdClock(() -> holdClock.addAndGet(Duration.ofHours(1).toNanos()))
                .gateways((gateways, bytes, timer, listener, retention) -> new RedisGateways(settings,
                        AdmissionControl.ONLY_SERVER, gateways, bytes, timer, listener, retention))
                .build();
        opened.add(control);
        return control;
    }

    private ProxyFixture proxy(EmbeddedPostgres pg, AdmissionControl control) throws InterruptedException {
        ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).admission(control.hook())
                .admissionSupport(control.support()).start();
        opened.add(proxy);
        return proxy;
    }

    @Test
    void aStarPredictedToWaitBehindAnotherProxysStatementRunsDegradedAtOnce(EmbeddedPostgres pg) throws Exception {
        String sql = star("fleet_predicted");
        List<String> expected = direct(pg, sql);
        long target = wideEstimate(star("any")) * 6 / 5;
        AdmissionControl first = member("predicted", target, new AtomicLong());
        AdmissionControl second = member("predicted", target, new AtomicLong());
        ProxyFixture viaFirst = proxy(pg, first);
        ProxyFixture viaSecond = proxy(pg, second);
        try (RawPgClient client = wideClient(viaSecond)) {
            for (int i = 0; i < WaitPredictor.MIN_HOLDS; i++) {
                assertThat(run(client, star("fleet_history"))).as("admitted at once, as it is")
                        .extracting(Message::type).containsExactly('T', 'D', 'C', 'Z');
            }
            assertThat(second.waits().holds(Tier.LARGE)).isEqualTo(WaitPredictor.MIN_HOLDS);
            assertThat(first.waits().holds(Tier.LARGE)).as("the history is the second proxy's own").isZero();

            try (DegradePredictedIT.Holder holder = DegradePredictedIT.Holder.start(pg, viaFirst, first)) {
                assertThat(second.gateways().state(Tier.LARGE).active()).as("the fleet's LARGE, as the second "
                        + "proxy reads it from Redis").isEqualTo(1);
                List<Message> answer = own(run(client, sql));
                assertThat(second.gateways().state(Tier.LARGE).active()).as("LARGE is still held").isEqualTo(1);
                assertThat(answer).extracting(Message::type).containsExactly('N', 'T', 'D', 'C', 'Z');
                assertThat(answer.get(0).fields().get('D')).contains("; it was degraded on a predicted wait of "
                        + "3600.0 s (position 1 for the LARGE gateway, 1 permit, recent holds 3600.0 s on average)");
                assertThat(dataRowValues(answer.get(2))).as("the same result as under the session's settings")
                        .isEqualTo(expected);
                assertThat(second.degradeCounts().count(Degraded.Reason.PREDICTED)).isEqualTo(1);
                assertThat(first.degradeCounts().total()).isZero();
                assertWideSettings(client);
            }
        }
    }
}
