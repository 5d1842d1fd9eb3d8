package io.memogate.bench.passthrough;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.memogate.bench.pgbench.Pgbench;
import io.memogate.bench.pgbench.PgbenchLoad;
import io.memogate.bench.pgbench.PgbenchResult;
import io.memogate.bench.pgbench.PgbenchRun;
import io.memogate.bench.pgbench.QueryMode;
import io.memogate.bench.process.Executables;
import io.memogate.bench.process.RunAs;
import io.memogate.bench.targets.Launch;
import io.memogate.bench.targets.Target;
import io.memogate.bench.targets.TargetKind;
import io.memogate.bench.targets.TargetLauncher;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The memogate-shipped target as the benchmark starts it: bin/memogate run of this checkout, in a process of its
 * own that is the proxy's JVM, in front of the bench's PostgreSQL 18 with the demo's configuration. It relays
 * pgbench's load, its broker polls the server (/health says live), its CPU time is read from its process, and
 * closing it leaves nothing running. It never judges the speed.
 */
class ShippedMemogateIT {

    private static final Pattern DESCRIBED_PID = Pattern.compile("pid (\\d+)");
    private static final Pattern LIVE = Pattern.compile("\"broker\"\\s*:\\s*\"live\"");

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void theShippedProxyRelaysPgbenchWithItsBrokerLiveAndItsCpuRead() throws Exception {
        Executables executables = Executables.fromEnvironment();
        try (BenchDatabase database = BenchDatabase.start()) {
            Pgbench pgbench = new Pgbench(Pgbench.find(executables), database.backend());
            pgbench.initialize(1);
            TargetLauncher launcher = new TargetLauncher(database.backend(), database.version(), executables,
                    RunAs.forThisProcess("nobody"), database.monitor());

            long pid;
            try (Target target = ((Launch.Started) launcher.launch(TargetKind.MEMOGATE_SHIPPED)).target()) {
                Matcher described = DESCRIBED_PID.matcher(target.description());
                assertThat(described.find()).as(target.description()).isTrue();
                pid = Long.parseLong(described.group(1));
                assertThat(ProcessHandle.of(pid).flatMap(p -> p.info().command()).orElseThrow())
                        .as("the launcher execs the JVM: the process measured is the proxy").endsWith("/java");
                assertThat(target.description()).contains("gateways on", "broker.monitor set");

                Duration before = target.cpuTime().orElseThrow();
                PgbenchRun run = pgbench.run(target.port(), new PgbenchLoad(QueryMode.PREPARED, 2, 2, 1));
                Duration after = target.cpuTime().orElseThrow();

                assertThat(run.result()).as(run.command().output()).isInstanceOfSatisfying(
                        PgbenchResult.Succeeded.class, ok -> assertThat(ok.transactions()).isPositive());
                assertThat(after).isGreaterThan(before);
                assertThat(health(target)).containsPattern(LIVE);
            }
            assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).as("the proxy after close").isEmpty();
        }
    }

    /**
     * A change against the build it starts from: the baseline target is bin/memogate of the checkout named, named in
     * the report by its directory and commit, and it relays like the shipped one. Without a checkout it is skipped.
     */
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void theBaselineIsTheNamedCheckoutsProxyAndSaysWhichBuildItIs() throws Exception {
        Executables executables = Executables.fromEnvironment();
        Path checkout = Path.of("..").toAbsolutePath().normalize(); // this repository
        try (BenchDatabase database = BenchDatabase.start()) {
            Pgbench pgbench = new Pgbench(Pgbench.find(executables), database.backend());
            pgbench.initialize(1);
            TargetLauncher withoutBaseline = new TargetLauncher(database.backend(), database.version(), executables,
                    RunAs.forThisProcess("nobody"), database.monitor());
            assertThat(withoutBaseline.launch(TargetKind.MEMOGATE_BASELINE)).isInstanceOf(Launch.Skipped.class);

            TargetLauncher launcher = new TargetLauncher(database.backend(), database.version(), executables,
                    RunAs.forThisProcess("nobody"), database.monitor(), 16, Optional.of(checkout));
            try (Target target = ((Launch.Started) launcher.launch(TargetKind.MEMOGATE_BASELINE)).target()) {
                assertThat(target.description()).containsPattern(
                        "bin/memogate run of " + Pattern.quote(checkout.toString()) + " at [0-9a-f]{8}");
                PgbenchRun run = pgbench.run(target.port(), new PgbenchLoad(QueryMode.SIMPLE, 2, 2, 1));
                assertThat(run.result()).as(run.command().output()).isInstanceOfSatisfying(
                        PgbenchResult.Succeeded.class, ok -> assertThat(ok.transactions()).isPositive());
            }
        }
    }

    /**
     * The deployment for thousands of connections: more pgbench clients than PgBouncer's transaction pool share the
     * pool's Memogate sessions, every transaction relayed; the relay's CPU is both processes'.
     */
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void pgbouncerInTransactionModeInFrontRelaysMoreClientsThanItsPool() throws Exception {
        Executables executables = Executables.fromEnvironment();
        assumeTrue(executables.find("pgbouncer").isPresent(), "PgBouncer is not installed (Debian's pgbouncer)");
        try (BenchDatabase database = BenchDatabase.start()) {
            Pgbench pgbench = new Pgbench(Pgbench.find(executables), database.backend());
            pgbench.initialize(1);
            TargetLauncher launcher = new TargetLauncher(database.backend(), database.version(), executables,
                    RunAs.forThisProcess("nobody"), database.monitor(), 40);
            try (Target target = ((Launch.Started) launcher.launch(TargetKind.MEMOGATE_BEHIND_PGBOUNCER)).target()) {
                assertThat(target.description()).contains("pool_mode=transaction, default_pool_size=20",
                        "Memogate as shipped", "gateways on");
                assertThat(target.relayPids()).hasSize(2);

                Duration before = target.cpuTime().orElseThrow();
                PgbenchRun run = pgbench.run(target.port(), new PgbenchLoad(QueryMode.SIMPLE, 2, 40, 2));
                Duration after = target.cpuTime().orElseThrow();

                assertThat(run.result()).as(run.command().output()).isInstanceOfSatisfying(
                        PgbenchResult.Succeeded.class, ok -> assertThat(ok.transactions()).isPositive());
                assertThat(run.command().output()).contains("number of clients: 40");
                assertThat(after).isGreaterThan(before);
            }
        }
    }

    /** /health once the broker has polled: the endpoint answers before the first poll is in. */
    private static String health(Target target) throws Exception {
        Matcher metrics = Pattern.compile("metrics on 127\\.0\\.0\\.1:(\\d+)").matcher(target.description());
        assertThat(metrics.find()).as(target.description()).isTrue();
        URI url = URI.create("http://127.0.0.1:" + metrics.group(1) + "/health");
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        try (HttpClient http = HttpClient.newHttpClient()) {
            while (true) {
                String body = http.send(HttpRequest.newBuilder(url).build(), HttpResponse.BodyHandlers.ofString()).body();
                if (LIVE.matcher(body).find() || System.nanoTime() > deadline) {
                    return body;
                }
                Thread.sleep(100);
            }
        }
    }
}
