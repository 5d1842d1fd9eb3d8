package io.memogate.broker.probe.sqlserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.memogate.broker.probe.MemorySnapshot;
import io.memogate.broker.probe.ProbeException;
import io.memogate.broker.probe.ProbeSettings;

/**
 * What the probe does with what the login may read, polled from hand-written result sets: no connection is opened
 * (the JDBC side is {@link SqlServerProbeIT}'s).
 */
class SqlServerProbeTest {

    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger probeLogger = (Logger) LoggerFactory.getLogger(SqlServerProbe.class);
    private final SqlServerProbe probe = new SqlServerProbe(new ProbeSettings(
            SqlServerUrl.of("db.example", 1433, SqlServerUrl.Tls.ENCRYPT, java.util.Optional.empty()), "memogate_monitor",
            "secret", false, Duration.ofSeconds(5)), System::nanoTime);

    @BeforeEach
    void captureLog() {
        log.start();
        probeLogger.addAppender(log);
    }

    @AfterEach
    void releaseLog() {
        probeLogger.detachAppender(log);
        probe.close();
    }

    @Test
    void withoutViewServerStateEveryPollFailsNamingTheGrantAndTheLogSaysItOnce() throws Exception {
        for (int poll = 0; poll < 3; poll++) {
            assertThatThrownBy(() -> probe.poll(HandwrittenPoll.of("no-rights")))
                    .isInstanceOf(ProbeException.class)
                    .hasMessageContaining("login [memogate_monitor] lacks VIEW SERVER STATE")
                    .hasMessageContaining("then broker.staticTarget")
                    .hasMessageContaining("GRANT VIEW SERVER PERFORMANCE STATE TO [memogate_monitor] on SQL Server 2022")
                    .hasMessageContaining("db.example");
        }
        assertThat(lines(Level.WARN)).singleElement().asString()
                .contains("GRANT VIEW SERVER STATE TO [memogate_monitor] before");

        MemorySnapshot granted = probe.poll(HandwrittenPoll.of("quiet"));

        assertThat(granted.serverGateways()).hasSize(3);
        assertThat(lines(Level.INFO)).singleElement().asString().contains("reads every view the probe polls again");
    }

    @Test
    void aReleaseWithoutTheGatewaysViewIsPolledWithoutThemAndSaysSoOnce() throws Exception {
        HandwrittenPoll sql2014 = HandwrittenPoll.of("sql2014", "quiet").withoutGateways();

        MemorySnapshot first = probe.poll(sql2014);
        probe.poll(sql2014);

        assertThat(first.version().number()).isEqualTo(120_006_024);
        assertThat(first.serverGateways()).isEmpty();
        assertThat(first.memory().ceilingBytes()).isPresent();
        assertThat(lines(Level.WARN)).singleElement().asString()
                .contains("no sys.dm_exec_query_optimizer_memory_gateways")
                .contains("the server's own gateways are not shown");
    }

    @Test
    void aFullyGrantedLoginLogsNothing() throws Exception {
        probe.poll(HandwrittenPoll.of("quiet"));
        probe.poll(HandwrittenPoll.of("storm", "quiet"));

        assertThat(log.list).isEmpty();
    }

    @Test
    void aResultSetNotAsTheViewsDocumentFailsThePollSayingWhatIsMissing() {
        DmvSource notSqlServer = new DmvSource() {
            @Override
            public MonitoringRights rights() {
                return MonitoringRights.of(HandwrittenPoll.parse("sys.fn_my_permissions", "answer\n1\n"));
            }

            @Override
            public DmvResults results() {
                throw new AssertionError("not read without the rights");
            }
        };

        assertThatThrownBy(() -> probe.poll(notSqlServer)).isInstanceOf(ProbeException.class)
                .hasMessageContaining("sys.fn_my_permissions has no column login");
    }

    @Test
    void aLoginNameIsQuotedAsAGrantNamesIt() {
        MonitoringRights odd = new MonitoringRights("CORP\\db]ops", false, false);

        assertThat(odd.missing()).hasValueSatisfying(message ->
                assertThat(message).contains("GRANT VIEW SERVER STATE TO [CORP\\db]]ops]"));
        assertThat(new MonitoringRights("x", true, false).missing()).isEmpty();
    }

    private List<String> lines(Level level) {
        return log.list.stream().filter(event -> event.getLevel() == level).map(ILoggingEvent::getFormattedMessage)
                .toList();
    }
}
