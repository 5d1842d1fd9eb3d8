package io.memogate.proxy.it;

import static io.memogate.proxy.it.DegradeIT.DATABASE;
import static io.memogate.proxy.it.DegradeIT.WIDE;
import static io.memogate.proxy.it.DegradeIT.assertWideSettings;
import static io.memogate.proxy.it.DegradeIT.dataRowValues;
import static io.memogate.proxy.it.DegradeIT.direct;
import static io.memogate.proxy.it.DegradeIT.run;
import static io.memogate.proxy.it.DegradeIT.star;
import static io.memogate.proxy.it.DegradeIT.wideClient;
import static io.memogate.proxy.it.DegradeIT.wideEstimate;
import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.Tier;
import io.memogate.proxy.admission.AdmissionControl;
import io.memogate.proxy.admission.DegradePolicy;
import io.memogate.proxy.admission.Degraded;
import io.memogate.proxy.admission.WaitPredictor;
import io.memogate.proxy.it.RawPgClient.Message;
import io.memogate.proxy.postgres.PostgresServer;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * admission.degrade.after with a predicted wait, against PostgreSQL 18: the star of {@link DegradeIT}, with a target
 * it fits but LARGE held by a DO block that planned the same star and sleeps, runs degraded at once when the holds
 * of LARGE seen so far predict a wait longer than after: it completes, with the result it has under the session's
 * settings and one NOTICE, while LARGE is still held, and the session's settings are its own afterwards; so does
 * a pgjdbc prepared statement, at its Bind. With no history the timer degrades it once it has waited after.
 *
 * <p>The holds are timed on a clock of the test's that reads an hour later at each reading, so that five quick stars
 * make a history of hour-long holds; after is ten minutes of real time, longer than the client waits for an answer
 * (its socket timeout), so a star that completes while LARGE is held was not degraded by the timer.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class DegradePredictedIT {

    private static final Duration LONG_AFTER = Duration.ofMinutes(10);
    private final AtomicLong holdClock = new AtomicLong();
    private AdmissionControl control;

    @BeforeEach
    void schema(EmbeddedPostgres pg) throws SQLException {
        DegradeIT.ensure(pg);
    }

    @AfterEach
    void stop() {
        if (control != null) {
            control.close();
        }
    }

    /** The star fits the target (it is not degraded for never fitting) but needs LARGE (over t2 = 0.6 of it). */
    private ProxyFixture proxy(EmbeddedPostgres pg, Duration after) throws InterruptedException {
        long target = wideEstimate(star("any")) * 6 / 5;
        DegradePolicy policy = new DegradePolicy(true, Set.of(), Set.of(), Optional.of(after));
        control = AdmissionControl.builder(AdmissionControl.ONLY_SERVER, PostgresServer.KIND, GatewaySettings.defaults(2))
                .staticTargetBytes(target).degrade(() -> policy).holdWhileRunning(() -> Duration.ofMinutes(10))
                .holdClock(() -> holdClock.addAndGet(Duration.ofHours(1).toNanos())).build();
        return ProxyFixture.to(pg.host(), pg.port()).admission(control.hook()).admissionSupport(control.support())
                .start();
    }

    /** Five stars alone, each admitted at once into LARGE and holding it an hour on the test's clock. */
    private void history(RawPgClient client) throws Exception {
        for (int i = 0; i < WaitPredictor.MIN_HOLDS; i++) {
            assertThat(run(client, star("history"))).as("admitted at once, as it is")
                    .extracting(Message::type).containsExactly('T', 'D', 'C', 'Z');
        }
        assertThat(control.waits().holds(Tier.LARGE)).isEqualTo(WaitPredictor.MIN_HOLDS);
        assertThat(control.degradeCounts().total()).isZero();
    }

    /** A session whose DO block planned the star and sleeps, holding LARGE (a statement planned while it runs). */
    record Holder(RawPgClient client, int backend, EmbeddedPostgres pg) implements AutoCloseable {

        static Holder start(EmbeddedPostgres pg, ProxyFixture proxy, AdmissionControl control) throws Exception {
            RawPgClient client = wideClient(proxy);
            int backend = Integer.parseInt(dataRowValues(run(client, "select pg_backend_pid()").get(1)).get(0));
            client.query("do $$ begin perform count(*) from (" + star("holder") + ") s; perform pg_sleep(600); end $$");
            ServerActivity.awaitWaitEvent(pg, backend, "Timeout:PgSleep");
            assertThat(control.gateways().state(Tier.LARGE).active()).as("the DO block holds LARGE").isEqualTo(1);
            return new Holder(client, backend, pg);
        }

        /** Cancels the DO block: its cycle ends, and its permits come back. */
        @Override
        public void close() throws Exception {
            try (client; Connection admin = pg.connect("postgres"); Statement statement = admin.createStatement()) {
                statement.execute("select pg_cancel_backend(" + backend + ")");
                assertThat(client.readUntilReady()).anyMatch(m -> m.type() == 'E' && "57014".equals(m.sqlState()));
            }
        }
    }

    /** The answer without the wait notice a loaded machine may send before it (admission.waitNotice, 1 s). */
    static List<Message> own(List<Message> answer) {
        return answer.stream().filter(m -> m.type() != 'N' || !m.fields().get('M').startsWith("statement queued for"))
                .toList();
    }

    @Test
    void aStarPredictedToWaitLongerThanAfterRunsDegradedWhileLargeIsStillHeld(EmbeddedPostgres pg) throws Exception {
        String sql = star("predicted");
        List<String> expected = direct(pg, sql);
        try (ProxyFixture proxy = proxy(pg, LONG_AFTER); RawPgClient client = wideClient(proxy)) {
            history(client);
            try (Holder holder = Holder.start(pg, proxy, control)) {
                List<Message> answer = own(run(client, sql));
                assertThat(control.gateways().state(Tier.LARGE).active()).as("LARGE is still held").isEqualTo(1);
                assertThat(answer).extracting(Message::type).containsExactly('N', 'T', 'D', 'C', 'Z');
                assertThat(answer.get(0).fields().get('M')).startsWith("statement planned with ")
                        .endsWith("instead of waiting longer than admission.degrade.after for the LARGE gateway");
                assertThat(answer.get(0).fields().get('D')).contains("; it was degraded on a predicted wait of "
                        + "3600.0 s (position 1 for the LARGE gateway, 1 permit, recent holds 3600.0 s on average), "
                        + "longer than admission.degrade.after, having waited ");
                assertThat(dataRowValues(answer.get(2))).as("the same result as under the session's settings")
                        .isEqualTo(expected);
                assertThat(control.degradeCounts().count(Degraded.Reason.PREDICTED)).isEqualTo(1);
                assertThat(control.degradeCounts().count("large")).as("degraded into a tier with room").isZero();
                assertWideSettings(client);
            }
        }
    }

    @Test
    void withNoHistoryTheTimerDegradesItOnceItHasWaitedAfter(EmbeddedPostgres pg) throws Exception {
        String sql = star("no_history");
        List<String> expected = direct(pg, sql);
        try (ProxyFixture proxy = proxy(pg, Duration.ofMillis(300)); RawPgClient client = wideClient(proxy);
                Holder holder = Holder.start(pg, proxy, control)) {
            assertThat(control.waits().holds(Tier.LARGE)).as("only the DO block, which holds LARGE still").isZero();
            List<Message> answer = own(run(client, sql));
            assertThat(answer).extracting(Message::type).containsExactly('N', 'T', 'D', 'C', 'Z');
            assertThat(answer.get(0).fields().get('D')).contains("; it had waited ").doesNotContain("predicted");
            assertThat(dataRowValues(answer.get(2))).isEqualTo(expected);
            assertThat(control.degradeCounts().count(Degraded.Reason.WAITED)).isEqualTo(1);
            assertThat(control.degradeCounts().count(Degraded.Reason.PREDICTED)).isZero();
            assertWideSettings(client);
        }
    }

    @Test
    void aPgjdbcPreparedStatementPredictedToWaitRunsDegradedAtItsBind(EmbeddedPostgres pg) throws Exception {
        // Not a tag that says "prepare": a text naming PREPARE is never degraded.
        String sql = star("bound_predicted");
        List<String> expected = direct(pg, sql);
        try (ProxyFixture proxy = proxy(pg, LONG_AFTER); RawPgClient client = wideClient(proxy);
                Connection connection = proxy.connect(DATABASE, "memogate", "memogate");
                Statement settings = connection.createStatement()) {
            history(client);
            settings.execute(WIDE);
            try (Holder holder = Holder.start(pg, proxy, control);
                    PreparedStatement statement = connection.prepareStatement(sql);
                    ResultSet rows = statement.executeQuery()) {
                rows.next();
                assertThat(List.of(rows.getString(1), rows.getString(2))).isEqualTo(expected);
                assertThat(control.gateways().state(Tier.LARGE).active()).as("LARGE is still held").isEqualTo(1);
                SQLWarning notice = statement.getWarnings();
                while (notice != null && notice.getMessage().startsWith("statement queued for")) {
                    notice = notice.getNextWarning();
                }
                assertThat((Object) notice).as("the NOTICE, through pgjdbc's extended protocol").isNotNull();
                assertThat(notice.getMessage()).startsWith("statement planned with ");
                assertThat(control.degradeCounts().count(Degraded.Reason.PREDICTED)).isEqualTo(1);
            }
            try (ResultSet rows = settings.executeQuery("select current_setting('join_collapse_limit'), "
                    + "current_setting('from_collapse_limit'), current_setting('geqo_threshold')")) {
                rows.next();
                assertThat(List.of(rows.getString(1), rows.getString(2), rows.getString(3)))
                        .as("the session's own settings").containsExactly("20", "20", "20");
            }
        }
    }
}
