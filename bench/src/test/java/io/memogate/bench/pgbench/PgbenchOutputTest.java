package io.memogate.bench.pgbench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The parser against pgbench 15.20's real output (Debian 15.20-0+deb12u1 against PostgreSQL 18.6),
 * captured from runs on this project's build machine; the files name what each run did.
 */
class PgbenchOutputTest {

    @Test
    void readsTheFigureWithoutConnectionTimeFromASimpleRun() throws IOException {
        PgbenchResult result = PgbenchOutput.parse(0, captured("pgbench15-simple-ok.txt"));

        assertThat(result).isEqualTo(new PgbenchResult.Succeeded(8702.499268, 16799, "without initial connection time"));
    }

    @Test
    void readsAPreparedRun() throws IOException {
        PgbenchResult result = PgbenchOutput.parse(0, captured("pgbench15-prepared-ok.txt"));

        assertThat(result).isEqualTo(new PgbenchResult.Succeeded(33594.635598, 66563, "without initial connection time"));
    }

    @Test
    void anAbortedClientFailsTheRunAlthoughATpsFigureWasPrinted() throws IOException {
        // pgbench prints its summary, then "Run was aborted", and exits with 2.
        PgbenchResult result = PgbenchOutput.parse(2, captured("pgbench15-client-aborted.txt"));

        assertThat(result).isInstanceOf(PgbenchResult.Failed.class);
        assertThat(((PgbenchResult.Failed) result).reason())
                .startsWith("pgbench exited with status 2: ")
                .contains("client 0 script 0 aborted in command 1 query 0: ERROR:  division by zero");
    }

    @Test
    void failedTransactionsFailTheRunEvenWithExitStatusZero() throws IOException {
        // Serialization failures without retries: pgbench 15 counts them, carries on and exits 0.
        PgbenchResult result = PgbenchOutput.parse(0, captured("pgbench15-serialization-failures.txt"));

        assertThat(result).isEqualTo(new PgbenchResult.Failed("8734 failed transactions"));
    }

    @Test
    void aConnectionFailureNamesPgbenchsError() throws IOException {
        PgbenchResult result = PgbenchOutput.parse(1, captured("pgbench15-connection-refused.txt"));

        assertThat(((PgbenchResult.Failed) result).reason())
                .isEqualTo("pgbench exited with status 1: pgbench: error: connection to server at \"127.0.0.1\", port 45872"
                        + " failed: Connection refused | pgbench: error: could not create connection for setup");
    }

    @Test
    void prefersTheFigureExcludingConnectionsInTheFormatOfPgbench13AndEarlier() {
        // pgbench 13's printResults prints both figures, the one including connections first.
        String output = """
                transaction type: <builtin: select only>
                scaling factor: 10
                query mode: simple
                number of clients: 16
                number of threads: 2
                duration: 6 s
                number of transactions actually processed: 120000
                latency average = 0.800 ms
                tps = 19876.543210 (including connections establishing)
                tps = 20012.345678 (excluding connections establishing)
                """;

        assertThat(PgbenchOutput.parse(0, output))
                .isEqualTo(new PgbenchResult.Succeeded(20012.345678, 120000, "excluding connections establishing"));
    }

    @Test
    void takesTheOnlyFigureWhenItIncludesConnections() {
        String output = """
                number of transactions actually processed: 500
                tps = 250.000000 (including connections establishing)
                """;

        assertThat(PgbenchOutput.parse(0, output))
                .isEqualTo(new PgbenchResult.Succeeded(250.0, 500, "including connections establishing"));
    }

    @Test
    void outputWithoutAFigureIsAFailureNotAZero() throws IOException {
        String truncated = captured("pgbench15-simple-ok.txt").replaceAll("(?m)^tps = .*$", "");

        assertThat(PgbenchOutput.parse(0, truncated))
                .isEqualTo(new PgbenchResult.Failed("no \"tps = ...\" line in pgbench's output"));
        assertThat(PgbenchOutput.parse(0, "")).isInstanceOf(PgbenchResult.Failed.class);
    }

    private static String captured(String name) throws IOException {
        try (InputStream in = PgbenchOutputTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
