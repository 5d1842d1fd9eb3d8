package io.memogate.bench.storm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.bench.storm.governor.Kill;
import io.memogate.bench.storm.load.ErrorKind;
import io.memogate.bench.storm.load.QueryTemplates;
import io.memogate.bench.storm.load.Template;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The emulated host, proven on one query before any storm may rely on it: on a 512 MiB "host", the
 * heaviest template (t01, about 1.35 GB to plan under the storm's settings) is killed as the OOM killer would,
 * its client sees its connection vanish, the server reinitializes and serves again, and a template that
 * fits is left alone. Nothing of the server may be left running afterwards.
 */
class StormServerIT {

    private static final long HOST = 512L << 20;

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void aPlanThatOutgrowsTheEmulatedHostIsKilledAndTheServerComesBack() throws Exception {
        List<Template> templates = QueryTemplates.load();
        Template heaviest = templates.stream().filter(t -> t.name().equals("t01")).findFirst().orElseThrow();
        Template light = templates.stream().filter(t -> t.name().equals("t02")).findFirst().orElseThrow();
        long postmaster;
        List<Long> processes;
        try (StormServer server = StormServer.start(HOST, Duration.ofMillis(25))) {
            postmaster = server.postmasterPid();
            long logStart = server.logOffset();
            try (Connection connection = server.endpoint().connect()) {
                assertThat(rows(connection, light.render(1, 1, 1000))).as("a 145 MB plan fits").isPositive();
            }
            assertThat(server.governor().kills()).as("nothing killed for a plan that fits").isEmpty();

            try (Connection connection = server.endpoint().connect()) {
                assertThatThrownBy(() -> rows(connection, heaviest.render(1, 2, 1000)))
                        .isInstanceOfSatisfying(SQLException.class, e -> assertThat(ErrorKind.of(e.getSQLState()))
                                .as("%s: %s", e.getSQLState(), e.getMessage()).isEqualTo(ErrorKind.SERVER_MEMORY_KILL));
            }
            List<Kill> kills = server.governor().kills();
            assertThat(kills).hasSize(1);
            assertThat(kills.getFirst().pid()).isNotEqualTo(postmaster);
            assertThat(kills.getFirst().totalBytes()).isGreaterThan(HOST);

            // The postmaster reinitializes; the same server takes new sessions and plans the light report.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            Integer answered = null;
            while (answered == null) {
                try (Connection connection = server.endpoint().connect()) {
                    answered = rows(connection, light.render(1, 3, 1000));
                } catch (SQLException e) {
                    assertThat(ErrorKind.of(e.getSQLState())).as(e.getMessage()).isEqualTo(ErrorKind.RESTART);
                    assertThat(System.nanoTime() - deadline).as("server back within 60 s").isNegative();
                    Thread.sleep(200);
                }
            }
            assertThat(answered).isPositive();
            assertThat(server.restarts(logStart, server.logOffset())).isEqualTo(1);
            assertThat(server.governor().kills()).hasSize(1);
            processes = List.of(postmaster);
        }
        assertThat(processes.stream().map(ProcessHandle::of).filter(p -> p.map(ProcessHandle::isAlive).orElse(false)))
                .as("server processes left").isEmpty();
    }

    private static int rows(Connection connection, String sql) throws SQLException {
        int count = 0;
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                count++;
            }
        }
        return count;
    }
}
