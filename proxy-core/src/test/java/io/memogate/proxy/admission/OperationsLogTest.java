package io.memogate.proxy.admission;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.memogate.broker.Broker;
import io.memogate.broker.BrokerSettings;
import io.memogate.broker.gateway.GatewayListener;
import io.memogate.broker.gateway.GatewayRejectedException;
import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.Gateways;
import io.memogate.broker.gateway.LocalGateways;
import io.memogate.broker.gateway.ScheduledGatewayTimer;
import io.memogate.broker.gateway.Tier;
import io.memogate.broker.gateway.TierSettings;
import io.memogate.broker.probe.ProbeException;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.postgres.PlannerSettings;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * What an operator finds in the log at the default level: one structured line for every refused
 * statement (fingerprint, estimate, tier, wait, client) and for every broker fallback, and nothing for a
 * statement that was admitted.
 */
class OperationsLogTest {

    private static final GatewayListener QUIET = new GatewayListener() {
        @Override
        public void admitted(Tier highestOrNull, long waitedNanos, long estimateBytes) {
        }

        @Override
        public void rejected(Tier tier, GatewayRejectedException.Reason reason, long waitedNanos, long estimateBytes) {
        }
    };

    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private final ScheduledGatewayTimer timer = new ScheduledGatewayTimer();
    private final SessionInfo session = new SessionInfo("analyst", "warehouse", "report-tool",
            new InetSocketAddress("10.1.2.3", 50000));

    @BeforeEach
    void capture() {
        log.start();
        root.addAppender(log);
    }

    @AfterEach
    void release() {
        root.detachAppender(log);
        timer.close();
    }

    /** What the default configuration (logback.xml: INFO) would print. */
    private List<String> printed() {
        return log.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.INFO))
                .map(ILoggingEvent::getFormattedMessage).toList();
    }

    private static String star(int tables) {
        StringBuilder sql = new StringBuilder("select count(*) from t0");
        for (int i = 1; i < tables; i++) {
            sql.append(" join t").append(i).append(" on t0.k").append(i).append(" = t").append(i).append(".a");
        }
        return sql.append(" where t0.a = 42").toString();
    }

    @Test
    void aRefusedStatementIsOneLineWithItsFingerprintEstimateTierWaitAndClient() {
        // SMALL admits one and lets nobody wait: the second gated statement is refused at once.
        TierSettings noQueue = new TierSettings(1, 0.25, 0, Duration.ofSeconds(30));
        Gateways gateways = new LocalGateways(GatewaySettings.defaults(1).with(Tier.SMALL, noQueue), 1L << 30,
                System::nanoTime, timer, QUIET);
        GatedAdmission admission = new GatedAdmission(new CompileEstimator(), gateways, estimate -> { }, closed -> { });
        StatementRequest request = new StatementRequest(star(8), AdmissionPoint.STATEMENT_TEXT, session, 7,
                PlannerSettings.DEFAULTS);

        Admission admitted = admission.admit(request);
        log.list.clear();
        Admission refused = admission.admit(request);

        assertThat(admitted.decision().toCompletableFuture()).isCompleted();
        assertThat(refused.decision().toCompletableFuture()).isCompletedExceptionally();
        try {
            refused.decision().toCompletableFuture().join();
        } catch (CompletionException expected) {
            assertThat(expected.getCause()).isInstanceOf(AdmissionRejectedException.class);
        }
        assertThat(printed()).singleElement().asString()
                .startsWith("refused statement: reason=QUEUE_FULL tier=SMALL budget=false waited_s=0.000 estimate_bytes=")
                .contains("client=/10.1.2.3:50000", "user=analyst", "database=warehouse", "application=report-tool")
                .contains("fingerprint=\"select count (*) from t0 join t1 on t0.k1 = t1.a")
                .doesNotContain("42");
    }

    @Test
    void anAdmittedStatementLeavesNoLine() {
        Gateways gateways = new LocalGateways(GatewaySettings.defaults(4), 1L << 30, System::nanoTime, timer, QUIET);
        GatedAdmission admission = new GatedAdmission(new CompileEstimator(), gateways, estimate -> { }, closed -> { });

        Admission admitted = admission.admit(new StatementRequest(star(8), AdmissionPoint.STATEMENT_TEXT, session, 7,
                PlannerSettings.DEFAULTS));

        assertThat(admitted.decision().toCompletableFuture()).isCompleted();
        assertThat(printed()).isEmpty();
    }

    @Test
    void aBrokerFallbackIsOneLineWithTheModeAndTheTargetInForce() {
        BrokerSettings settings = BrokerSettings.builder("jdbc:postgresql://db.internal/postgres", "monitor", "secret")
                .staticTargetBytes(256L << 20).build();
        try (Broker broker = new Broker(settings, () -> {
            throw new ProbeException("connection refused");
        }, System::nanoTime, state -> { })) {
            broker.pollOnce();
            broker.pollOnce(); // the same failure again: no second line
        }

        assertThat(printed()).singleElement().asString()
                .isEqualTo("broker fallback: mode=static target_bytes=268435456 probe=jdbc:postgresql://db.internal/postgres "
                        + "failure=\"connection refused\"");
    }
}
