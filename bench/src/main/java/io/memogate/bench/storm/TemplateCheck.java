package io.memogate.bench.storm;

import io.memogate.bench.storm.governor.ProcFs;
import io.memogate.bench.storm.load.Template;
import io.memogate.estimator.CompileEstimate;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.postgres.PlannerSettings;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * `bench storm --check-templates`: plans each template once, alone, on a governed server with the
 * storm's settings, and prints what PostgreSQL reports (EXPLAIN (SUMMARY, MEMORY)), the backend's
 * private memory afterwards, and Memogate's estimate. One template at a time, each on a new connection,
 * so every figure belongs to one plan; a template that outgrows the emulated host is killed and says so.
 */
final class TemplateCheck {

    /** PostgreSQL 17+: "Memory: used=123kB  allocated=456kB" under "Planning:". */
    private static final Pattern MEMORY = Pattern.compile("Memory: used=(\\d+)kB\\s+allocated=(\\d+)kB");
    private static final Pattern PLANNING_TIME = Pattern.compile("Planning Time: ([\\d.]+) ms");

    /**
     * @param usedBytes       planner memory in use at the end of planning, as EXPLAIN reports it
     * @param allocatedBytes  planner memory allocated from malloc
     * @param rssAnonBytes    the backend's private resident memory right after planning (what the governor sums)
     * @param peakBytes       the server's peak private memory while planning (all its processes; an idle
     *                        server holds a few tens of MB): what the emulated host must have room for
     * @param killedBy        empty, or why the plan did not finish
     */
    record Measurement(Template template, CompileEstimate estimate, long usedBytes, long allocatedBytes,
                       long rssAnonBytes, long peakBytes, double planningMillis, Optional<String> killedBy) {
    }

    private final long hostMemoryBytes;
    private final Duration governorInterval;
    private final PrintWriter out;

    private final List<Template> templates;

    TemplateCheck(List<Template> templates, long hostMemoryBytes, Duration governorInterval, PrintWriter out) {
        this.templates = List.copyOf(templates);
        this.hostMemoryBytes = hostMemoryBytes;
        this.governorInterval = governorInterval;
        this.out = out;
    }

    List<Measurement> run() throws Exception {
        PlannerSettings settings = PlannerSettings.DEFAULTS;
        for (var setting : StormServer.PLANNER_SETTINGS.entrySet()) {
            settings = settings.with(setting.getKey(), setting.getValue());
        }
        CompileEstimator estimator = new CompileEstimator();
        List<Measurement> measurements = new ArrayList<>();
        out.println("| template | relations | estimate | server peak while planning | used at the end (EXPLAIN) | backend RssAnon after | planning time |");
        out.println("|---|---:|---:|---:|---:|---:|---:|");
        out.flush();
        try (StormServer server = StormServer.start(hostMemoryBytes, governorInterval)) {
            ProcFs proc = new ProcFs();
            try {
            for (Template template : templates) {
                String sql = template.render(0, 0, 1000);
                CompileEstimate estimate = estimator.estimate(sql, settings);
                Measurement m = measure(server, proc, template, estimate, sql);
                measurements.add(m);
                out.printf(Locale.ROOT, "| %s | %d | %s | %s | %s | %s | %s |%n", template.name(), estimate.relations(),
                        mb(estimate.estimatedBytes()), m.killedBy().orElse(mb(m.peakBytes())),
                        m.killedBy().isPresent() ? "-" : mb(m.usedBytes()),
                        m.killedBy().isPresent() ? "-" : mb(m.rssAnonBytes()),
                        m.killedBy().isPresent() ? "-" : String.format(Locale.ROOT, "%.1f s", m.planningMillis() / 1000));
                out.flush();
            }
            } finally {
            server.saveLog(Path.of(System.getProperty("java.io.tmpdir"), "memogate-storm-check-templates.log"));
            }
        }
        return measurements;
    }

    private Measurement measure(StormServer server, ProcFs proc, Template template, CompileEstimate estimate, String sql)
            throws Exception {
        Thread.sleep(1000); // the previous template's backend has exited and given its memory back
        int killsBefore = server.governor().kills().size();
        try (Connection connection = awaitConnection(server); Statement statement = connection.createStatement()) {
            long pid;
            try (ResultSet rows = statement.executeQuery("SELECT pg_backend_pid()")) {
                rows.next();
                pid = rows.getLong(1);
            }
            long start = System.nanoTime();
            StringBuilder plan = new StringBuilder();
            try (ResultSet rows = statement.executeQuery("EXPLAIN (SUMMARY, MEMORY, COSTS OFF) " + sql)) {
                while (rows.next()) {
                    plan.append(rows.getString(1)).append('\n');
                }
            }
            long rss = proc.privateBytes(pid).orElse(-1);
            long peak = server.governor().trace().peak(start, System.nanoTime());
            Matcher memory = MEMORY.matcher(plan);
            Matcher time = PLANNING_TIME.matcher(plan);
            if (!memory.find() || !time.find()) {
                throw new IllegalStateException("EXPLAIN of " + template.name() + " reported no planning memory:\n" + plan);
            }
            return new Measurement(template, estimate, Long.parseLong(memory.group(1)) * 1024,
                    Long.parseLong(memory.group(2)) * 1024, rss, peak, Double.parseDouble(time.group(1)), Optional.empty());
        } catch (SQLException e) {
            if (server.governor().kills().size() > killsBefore) {
                return new Measurement(template, estimate, -1, -1, -1, -1, -1,
                        Optional.of("killed above " + mb(hostMemoryBytes)));
            }
            throw e;
        }
    }

    /** After a kill the server reinitializes for a moment; wait for it. */
    private static Connection awaitConnection(StormServer server) throws SQLException, InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                return server.endpoint().connect();
            } catch (SQLException e) {
                if (attempt == 100) {
                    throw e;
                }
                Thread.sleep(200);
            }
        }
    }

    private static String mb(long bytes) {
        return String.format(Locale.ROOT, "%.0f MB", bytes / 1e6);
    }
}
