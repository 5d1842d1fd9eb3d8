package io.memogate.bench.pgbench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The transactions between two instants of a run, from pgbench 15.20's progress reports as the passthrough
 * benchmark starts it ({@code -P 1 --progress-timestamp}); the files are runs of 8 s through the shipped proxy.
 */
class PgbenchProgressTest {

    @Test
    void countsTheTransactionsOfWholeIntervalsBetweenTwoReports() throws IOException {
        // 16 clients: reports 2 to 5 are 097.458, 098.458, 099.458, 100.458, with 10371.3, 23508.4 and 15813.2 tps
        // in the three seconds after report 2.
        PgbenchProgress progress = PgbenchProgress.parse(captured("pgbench15-progress-16-clients.txt"));

        assertThat(progress.reports()).isEqualTo(8);
        assertThat(progress.transactionsBetween(at("1795879097.458"), at("1795879100.458")).getAsDouble())
                .isCloseTo(10371.3 + 23508.4 + 15813.2, within(0.01));
    }

    @Test
    void countsPartOfAnIntervalByItsRate() throws IOException {
        PgbenchProgress progress = PgbenchProgress.parse(captured("pgbench15-progress-16-clients.txt"));

        // Half of the second at 23508.4 tps and a quarter of the one at 15813.2.
        assertThat(progress.transactionsBetween(at("1795879098.958"), at("1795879099.708")).getAsDouble())
                .isCloseTo(23508.4 / 2 + 15813.2 / 4, within(0.01));
    }

    @Test
    void theFirstReportComesOnceAllClientsHaveConnectedAndCountsNothingBeforeIt() throws IOException {
        // 256 clients took 5.1 s to connect; -T counts that time, so an 8 s run reported four times, the first
        // (0.0 tps) right after the last log-in, for the seconds spent connecting.
        PgbenchProgress progress = PgbenchProgress.parse(captured("pgbench15-progress-256-clients.txt"));

        assertThat(progress.reports()).isEqualTo(4);
        assertThat(progress.firstReport()).contains(at("1795879109.449"));
        assertThat(progress.transactionsBetween(at("1795879109.449"), at("1795879112.329")).getAsDouble())
                .isCloseTo(4285.9 * 0.930 + 5053.6 * 0.951 + 6031.2 * 0.999, within(0.01));
    }

    @Test
    void instantsOutsideTheReportsHaveNoCount() throws IOException {
        PgbenchProgress progress = PgbenchProgress.parse(captured("pgbench15-progress-256-clients.txt"));

        assertThat(progress.transactionsBetween(at("1795879109.000"), at("1795879111.000"))).isEmpty();
        assertThat(progress.transactionsBetween(at("1795879110.000"), at("1795879112.500"))).isEmpty();
        assertThat(PgbenchProgress.parse(captured("pgbench15-simple-ok.txt")).reports()).isZero();
    }

    private static Instant at(String epochSeconds) {
        String[] parts = epochSeconds.split("\\.");
        return Instant.ofEpochSecond(Long.parseLong(parts[0]), Long.parseLong(parts[1]) * 1_000_000);
    }

    private static String captured(String name) throws IOException {
        try (InputStream in = PgbenchProgressTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
