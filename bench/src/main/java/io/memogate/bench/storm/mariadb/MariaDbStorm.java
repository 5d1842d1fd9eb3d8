package io.memogate.bench.storm.mariadb;

import io.memogate.bench.storm.mariadb.HeavyClient.Tally;
import io.memogate.bench.storm.mariadb.HeavyStatements.Kind;
import io.memogate.broker.probe.mysql.MariaDbServer;
import io.memogate.proxy.cli.DemoConfig;
import io.memogate.proxy.cli.RunningProxy;
import io.memogate.proxy.mysql.demo.MariaDbDemoSchema;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code memogate bench storm --server mariadb}: the statements that cost MariaDB's optimizer,
 * measured directly and through Memogate with its gateways on (as {@code demo --server mariadb} runs it), on one
 * private server watched by {@link GovernedMariaDb}. Per mode: point selects alone (the quiet baseline), then
 * heavy clients (reports with pruning off, ORM-sized IN lists) with the point selects beside them. Reports heavy
 * statements completed per minute, the point selects' p95 against the baseline, and server restarts.
 */
public final class MariaDbStorm {

    private final MariaDbStormPlan plan;
    private final PrintWriter out;
    private final String commandLine;

    public MariaDbStorm(MariaDbStormPlan plan, PrintWriter out, String commandLine) {
        this.plan = plan;
        this.out = out;
        this.commandLine = commandLine;
    }

    /** One mode's figures. */
    record Cell(String mode, PointSelects.Figures quiet, PointSelects.Figures storm, long[] reports, long[] inLists,
                int restarts, long peakBytes) {}

    /** Runs both modes; false when sysbench or mariadbd is missing (said on {@code out}). */
    public boolean run() throws Exception {
        String missing = MariaDbServer.missing();
        if (!missing.isEmpty() || !Files.isExecutable(PointSelects.SYSBENCH)) {
            out.println("bench storm --server mariadb needs " + (missing.isEmpty()
                    ? PointSelects.SYSBENCH + " (Debian: apt-get install sysbench)" : missing));
            return false;
        }
        Files.createDirectories(plan.directory());
        PointSelects points = new PointSelects(MariaDbDemoSchema.OWNER, MariaDbDemoSchema.OWNER_PASSWORD,
                plan.directory().resolve("sysbench.log"));
        List<Cell> cells = new ArrayList<>();
        out.println("starting a private MariaDB with the demo warehouse (emulated host: "
                + (plan.hostMemoryBytes() >> 20) + " MiB) ...");
        out.flush();
        try (GovernedMariaDb server = GovernedMariaDb.start(plan.hostMemoryBytes(), plan.governorInterval())) {
            points.prepare(server.port());
            cells.add(cell("direct", server, server.port(), points));
            try (RunningProxy proxy = RunningProxy.start(DemoConfig.mariaDb(server.port(), 0, 0,
                    Optional.of(plan.hostMemoryBytes())))) {
                cells.add(cell("gateways-on", server, proxy.server().port(), points));
            }
            if (server.failure() != null) {
                throw new IllegalStateException("the governor stopped watching the server", server.failure());
            }
        }
        String report = MariaDbStormReport.markdown(plan, commandLine, cells);
        Files.writeString(plan.directory().resolve("report.md"), report, StandardCharsets.UTF_8);
        out.println(report);
        out.println("report: " + plan.directory().resolve("report.md"));
        out.flush();
        return true;
    }

    private Cell cell(String mode, GovernedMariaDb server, int port, PointSelects points)
            throws IOException, InterruptedException {
        server.freshProcess();
        out.println(mode + ": point selects alone for " + plan.quiet().toSeconds() + " s ...");
        out.flush();
        PointSelects.Figures quiet = points.run(port, plan.pointSelectThreads(), plan.quiet());
        int restartsBefore = server.restarts();
        server.takePeakBytes();
        Tally reports = new Tally();
        Tally inLists = new Tally();
        HeavyStatements statements = new HeavyStatements(plan.inListValues(), plan.boundSeconds());
        String url = "jdbc:mariadb://127.0.0.1:" + port + "/" + MariaDbDemoSchema.DATABASE
                + "?connectTimeout=10000&socketTimeout=" + (plan.boundSeconds() + 600) * 1000L;
        List<HeavyClient> clients = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < plan.heavyClients(); i++) {
            Kind kind = i % 2 == 0 ? Kind.REPORT : Kind.IN_LIST;
            HeavyClient client = new HeavyClient(url, MariaDbDemoSchema.OWNER, MariaDbDemoSchema.OWNER_PASSWORD, kind,
                    statements, plan.seed() * 1000 + i, kind == Kind.REPORT ? reports : inLists);
            clients.add(client);
            threads.add(Thread.ofPlatform().name("heavy-" + i).daemon().start(client));
        }
        out.println(mode + ": " + plan.heavyClients() + " heavy clients, " + plan.warmup().toSeconds()
                + " s warm-up, then point selects beside them for " + plan.measured().toSeconds() + " s ...");
        out.flush();
        Thread.sleep(plan.warmup().toMillis());
        long[] reportsBefore = reports.snapshot();
        long[] inListsBefore = inLists.snapshot();
        Instant start = Instant.now();
        PointSelects.Figures storm = points.run(port, plan.pointSelectThreads(), plan.measured());
        Duration measured = Duration.between(start, Instant.now());
        long[] reportsDone = minus(reports.snapshot(), reportsBefore);
        long[] inListsDone = minus(inLists.snapshot(), inListsBefore);
        clients.forEach(HeavyClient::stop);
        for (Thread thread : threads) {
            thread.join(Duration.ofSeconds(plan.boundSeconds() + 60));
        }
        out.println(mode + ": measured " + measured.toSeconds() + " s");
        return new Cell(mode, quiet, storm, reportsDone, inListsDone, server.restarts() - restartsBefore,
                server.takePeakBytes());
    }

    private static long[] minus(long[] after, long[] before) {
        long[] difference = new long[after.length];
        for (int i = 0; i < after.length; i++) {
            difference[i] = after[i] - before[i];
        }
        return difference;
    }
}
