package io.memogate.proxy.admin;

import io.memogate.broker.Broker;
import io.memogate.broker.BrokerState;
import io.memogate.broker.FleetInstance;
import io.memogate.broker.FleetMember;
import io.memogate.broker.PressureSignal;
import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.Gateways;
import io.memogate.broker.gateway.LedgerState;
import io.memogate.broker.gateway.Sizes;
import io.memogate.broker.gateway.Tier;
import io.memogate.broker.gateway.TierState;
import io.memogate.broker.gateway.WaitingStatement;
import io.memogate.broker.probe.MemorySnapshot;
import io.memogate.broker.probe.ServerGateway;
import io.memogate.broker.probe.ServerMemory;
import io.memogate.estimator.Catalog;
import io.memogate.estimator.CompileEstimate;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.PreparedStatementTexts;
import io.memogate.estimator.dialect.DialectSettings;
import io.memogate.proxy.admission.AdmissionControl;
import io.memogate.proxy.admission.CatalogState;
import io.memogate.proxy.admission.DegradeCounts;
import io.memogate.proxy.admission.Degraded;
import io.memogate.proxy.admission.QueuedStatement;
import io.memogate.proxy.admission.SearchTiers;
import io.memogate.proxy.admission.ServerCatalogs;
import io.memogate.proxy.admission.SessionInfo;
import io.memogate.proxy.admission.StatementRecords;
import io.memogate.proxy.admission.WaitPredictor;
import io.memogate.proxy.config.Durations;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The console's views of admission: SHOW TIERS, SHOW QUEUE, SHOW BROKER, SHOW CATALOGS and EXPLAIN ADMISSION. Each
 * reads state the gateways and the broker already keep; none touches the server.
 *
 * <p>Byte figures come twice, as a number for scripts ({@code _bytes}) and in words for people.
 */
final class AdmissionViews {

    /** Long enough to tell statements apart, short enough for a terminal line. */
    static final int FINGERPRINT_CHARS = 120;
    /** SQL Server's default resource pool (Resource Governor's pool_id 2), whose gateways are named plainly. */
    private static final int DEFAULT_POOL = 2;

    private AdmissionViews() {
    }

    static ResultTable tiers(Gateways gateways) {
        Optional<FleetMember> fleet = FleetViews.of(gateways);
        List<String> columns = new ArrayList<>(List.of("tier", "limit", "active", "waiting", "threshold_bytes",
                "threshold", "fraction", "max_queue", "timeout", "admitted", "timeouts", "queue_full"));
        fleet.ifPresent(f -> columns.addAll(FleetViews.TIER_COLUMNS));
        List<FleetInstance> instances = fleet.map(FleetViews::instances).orElse(List.of());
        ResultTable.Builder table = ResultTable.of(columns.toArray(String[]::new));
        GatewaySettings settings = gateways.settings();
        for (Tier tier : Tier.values()) {
            TierState state = gateways.state(tier);
            List<Object> row = new ArrayList<>(Arrays.asList(tier.configName(), state.limit(), state.active(),
                    state.waiting(), state.thresholdBytes(), Sizes.bytes(state.thresholdBytes()),
                    // LARGE has no fraction: nothing comes after it.
                    tier == Tier.LARGE ? null : number(state.fraction()),
                    settings.tier(tier).maxQueue(), Durations.format(state.timeout()), state.admittedTotal(),
                    state.timeoutsTotal(), state.queueFullTotal()));
            fleet.ifPresent(f -> row.addAll(FleetViews.tierColumns(f, instances, tier)));
            table.row(row.toArray());
        }
        return table.build();
    }

    /** @param waits what predicts the wait of a statement that degrades after waiting, for its degrade column */
    static ResultTable queue(Gateways gateways, WaitPredictor waits) {
        Optional<FleetMember> fleet = FleetViews.of(gateways);
        List<String> columns = new ArrayList<>(List.of("queue", "position", "client", "user", "database",
                "application", "waited_s", "estimate_bytes", "estimate", "search_s", "server_pid", "fingerprint", "degrade"));
        fleet.ifPresent(f -> columns.add(FleetViews.QUEUE_COLUMN));
        ResultTable.Builder table = ResultTable.of(columns.toArray(String[]::new));
        for (WaitingStatement waiting : gateways.waiting()) {
            String queue = waiting.forBudget() || waiting.tier() == null ? "budget" : waiting.tier().configName();
            String client = null;
            String user = null;
            String database = null;
            String application = null;
            String fingerprint = null;
            String search = null;
            String degrade = null;
            if (waiting.tag() instanceof QueuedStatement statement) {
                degrade = WaitViews.degradeColumn(statement, waiting, gateways, waits);
                search = searchSeconds(statement.searchSeconds());
                client = SessionInfo.describe(statement.session().clientAddress());
                user = statement.session().user();
                database = statement.session().database();
                application = statement.session().applicationName();
                fingerprint = QueuedStatement.shorten(statement.fingerprint(), FINGERPRINT_CHARS);
            }
            List<Object> row = new ArrayList<>(Arrays.asList(queue, waiting.position(), client, user, database,
                    application, seconds(waiting.waited()), waiting.estimateBytes(),
                    Sizes.bytes(waiting.estimateBytes()), search, waiting.connection(), fingerprint, degrade));
            fleet.ifPresent(f -> row.add(FleetViews.instanceOf(f, waiting)));
            table.row(row.toArray());
        }
        return table.build();
    }

    /** Name/value rows: where the target comes from, how fresh it is, and why it moved. */
    static ResultTable broker(Optional<Broker> broker, Gateways gateways) {
        ResultTable.Builder table = ResultTable.of("name", "value");
        long target = gateways.target();
        if (broker.isEmpty()) {
            table.row("mode", "off");
            table.row("target_bytes", target).row("target", Sizes.bytes(target));
            table.row("note", "no broker.monitor configured: the target is broker.staticTarget");
            FleetViews.of(gateways).ifPresent(fleet -> FleetViews.brokerRows(table, fleet, broker));
            return table.build();
        }
        BrokerState state = broker.get().state();
        table.row("mode", state.mode().name().toLowerCase(Locale.ROOT));
        table.row("target_bytes", target).row("target", Sizes.bytes(target));
        table.row("snapshot_age_s", state.lastGoodAge().map(AdmissionViews::seconds).orElse(null));
        table.row("signals", state.pressureSignals().stream().map(PressureSignal::name)
                .map(name -> name.toLowerCase(Locale.ROOT)).collect(Collectors.joining(", ")));
        table.row("consecutive_failures", state.consecutiveFailures());
        table.row("total_failures", state.totalFailures());
        table.row("last_failure", state.lastFailure().orElse(null));
        Optional<MemorySnapshot> snapshot = state.lastGoodSnapshot();
        // Named as PostgreSQL names them, the one server kind the proxy fronts; see MemorySnapshot for each.
        table.row("server_version_num", snapshot.map(s -> s.version().number()).orElse(null));
        table.row("shared_buffers_bytes", snapshot.map(s -> s.memory().cacheBytes()).orElse(null));
        table.row("work_mem_bytes", snapshot.flatMap(s -> boxed(s.memory().operationBytes())).orElse(null));
        table.row("active_backends", snapshot.map(s -> s.connections().active()).orElse(null));
        table.row("private_bytes", snapshot.map(MemorySnapshot::memory).filter(m -> !m.retainedBytesById().isEmpty())
                .map(ServerMemory::retainedBytesTotal).orElse(null));
        table.row("host_memory_available_bytes", snapshot.flatMap(s -> boxed(s.host().availableBytes())).orElse(null));
        snapshot.ifPresent(s -> serverMemoryRows(table, s));
        FleetViews.of(gateways).ifPresent(fleet -> FleetViews.brokerRows(table, fleet, broker));
        return table.build();
    }

    /**
     * What only some servers report (SQL Server): the memory it grows to, and a row per compile gateway it keeps
     * itself, to read beside SHOW TIERS ("server_small_gateway", "_pool3" after a pool other than the default).
     */
    private static void serverMemoryRows(ResultTable.Builder table, MemorySnapshot snapshot) {
        snapshot.memory().ceilingBytes().ifPresent(bytes -> table.row("server_memory_target_bytes", bytes));
        for (ServerGateway gateway : snapshot.serverGateways()) {
            String name = "server_" + gateway.name().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_")
                    + (gateway.pool() == DEFAULT_POOL ? "" : "_pool" + gateway.pool());
            table.row(name, gateway.activeCount() + " of " + gateway.maxCount() + " compiling, "
                    + gateway.waiterCount() + " waiting, threshold "
                    + boxed(gateway.thresholdBytes()).map(Sizes::bytes).orElse("none"));
        }
    }

    /**
     * Each server's table as one, under a first column {@code server} that names the backend each row is of:
     * every view of admission has one row set per database server.
     */
    static ResultTable perServer(List<AdmissionControl> servers, Function<AdmissionControl, ResultTable> view) {
        return perServer(null, servers, view);
    }

    /**
     * As {@link #perServer(List, Function)}, after the rows of {@code proxyWide} (of the same columns), whose
     * server is NULL: they are of the proxy as a whole.
     */
    static ResultTable perServer(ResultTable proxyWide, List<AdmissionControl> servers,
                                 Function<AdmissionControl, ResultTable> view) {
        List<String> columns = null;
        List<List<String>> rows = new ArrayList<>();
        if (proxyWide != null) {
            columns = proxyWide.columns();
            addRows(rows, null, proxyWide);
        }
        for (AdmissionControl server : servers) {
            ResultTable table = view.apply(server);
            columns = table.columns();
            addRows(rows, server.server(), table);
        }
        List<String> all = new ArrayList<>();
        all.add("server");
        all.addAll(columns == null ? List.of() : columns);
        return new ResultTable(all, rows);
    }

    private static void addRows(List<List<String>> rows, String server, ResultTable table) {
        for (List<String> row : table.rows()) {
            List<String> named = new ArrayList<>(row.size() + 1);
            named.add(server);
            named.addAll(row);
            rows.add(named);
        }
    }

    /** A server's admission counters for SHOW STATS. */
    static ResultTable stats(Gateways gateways, StatementRecords statements, DegradeCounts degraded) {
        ResultTable.Builder table = ResultTable.of("name", "value");
        table.row("paused", gateways.paused());
        long timeouts = 0;
        long queueFull = 0;
        for (Tier tier : Tier.values()) {
            TierState state = gateways.state(tier);
            timeouts += state.timeoutsTotal();
            queueFull += state.queueFullTotal();
        }
        // Every gated statement holds SMALL: its admissions are all the gateways' admissions.
        table.row("admitted_total", gateways.state(Tier.SMALL).admittedTotal());
        table.row("timeouts_total", timeouts);
        table.row("queue_full_total", queueFull);
        table.row("degraded_total", degraded.total());
        table.row("degraded_predicted_total", degraded.count(Degraded.Reason.PREDICTED));
        ledger(table, gateways);
        StatementRecords.Window records = statements.window();
        table.row("statements_recorded", records.records().size());
        table.row("statements_dropped", records.dropped());
        return table.build();
    }

    /** The byte budget's ledger, for SHOW STATS. */
    static void ledger(ResultTable.Builder table, Gateways gateways) {
        LedgerState ledger = gateways.ledger();
        table.row("budget_target_bytes", ledger.targetBytes());
        table.row("budget_used_bytes", ledger.totalBytes());
        table.row("budget_in_flight_bytes", ledger.inFlightBytes());
        table.row("budget_server_processes", ledger.connections());
        table.row("budget_waiting", ledger.budgetWaiting());
    }

    /**
     * The estimator's dry run, one row per statement: what {@code bin/memogate estimate} prints (the
     * {@code json} column is that very line), under the planner settings a new session starts with, with
     * the indexes given (a database's, as its sessions are estimated, or none), and the gateways the
     * statement would take as they stand now.
     *
     * @param catalog what {@code indexes} are, in words: the {@code catalog} column
     * @param server the admission of the server estimated for; empty when admission is disabled
     */
    static ResultTable explain(CompileEstimator estimator, DialectSettings settings, String statements,
                               Catalog read, String catalog, Optional<AdmissionControl> server,
                               SearchTiers searchTiers) {
        ResultTable.Builder table = ResultTable.of("statement", "estimated_bytes", "estimated", "search_s",
                "gateways", "relations", "blocks", "memo_pairs", "parser", "bypass", "reason", "catalog",
                "fingerprint", "json", "degraded", "predicted_wait");
        List<CompileEstimate> estimates = estimator.estimateAll(statements, settings, PreparedStatementTexts.NONE,
                read);
        for (int i = 0; i < estimates.size(); i++) {
            CompileEstimate e = estimates.get(i);
            // Only a statement sent alone is degraded: in a query string of several it is not.
            String degraded = estimates.size() == 1
                    ? server.map(s -> degraded(s, statements, settings, read, e)).orElse(null) : null;
            table.row(i + 1, e.estimatedBytes(), Sizes.bytes(e.estimatedBytes()), searchSeconds(e.searchSeconds()),
                    server.map(s -> tiersFor(e, s.gateways(), searchTiers)).orElse("admission disabled"),
                    e.relations(), e.blocks(),
                    e.memoPairs(), e.parser().name().toLowerCase(Locale.ROOT), e.bypass(), e.reason(), catalog,
                    QueuedStatement.shorten(e.fingerprint(), FINGERPRINT_CHARS), EstimateJson.of(e), degraded,
                    server.map(s -> WaitViews.explainColumn(highestTier(e, s.gateways(), searchTiers), s.gateways(),
                            s.waits())).orElse(null));
        }
        return table.build();
    }

    /**
     * EXPLAIN ADMISSION's {@code degraded} column: the settings a statement that can never fit the target would run
     * under, and its estimate there; null when it fits.
     */
    private static String degraded(AdmissionControl server, String sql, DialectSettings settings, Catalog read,
                                   CompileEstimate estimate) {
        if (estimate.bypass() || estimate.estimatedBytes() <= server.gateways().target()) {
            return null;
        }
        String off = server.degrades() ? "" : " (admission.degrade is off: admitted alone instead)";
        return server.degradeFor(sql, settings, read, estimate)
                .map(d -> d.degradation().describe() + ": " + Sizes.bytes(d.degradedBytes()) + off)
                .orElse("no tighter settings fit the target: admitted alone");
    }

    /** EXPLAIN ADMISSION's {@code catalog} column: which indexes the estimate counted, and why none. */
    static String catalogUsed(Optional<String> database, ServerCatalogs catalogs, Catalog read) {
        if (database.isEmpty()) {
            return "none: from the SQL (EXPLAIN ADMISSION DATABASE name ... reads a database's indexes)";
        }
        String name = database.get();
        if (!catalogs.reads()) {
            return "none: no broker.monitor to read the indexes of " + name + " with";
        }
        if (!read.equals(Catalog.NONE)) {
            return name + ": " + read.indexes().tables() + " tables with indexes, " + read.views().size() + " views, "
                    + read.functions().size() + " inlinable functions, " + read.routines().size() + " routines, "
                    + read.triggers().size() + " triggers";
        }
        String state = catalogs.state(name).map(CatalogState::state).orElse("failed");
        return switch (state) {
            case "read" -> name + ": no table with an index, no view, no inlinable function, no routine, no trigger";
            case "reading" -> "none: the index catalog of " + name + " was still being read after "
                    + AdminConsole.CATALOG_WAIT.toSeconds() + " s";
            default -> "none: the index catalog of " + name + " could not be read (see SHOW CATALOGS and the log)";
        };
    }

    /**
     * The tiers a statement arriving now would take: SMALL from t0, MEDIUM from t1 = target x F_small /
     * S_small and LARGE from t2 = target x F_medium / S_medium, S counting the statement itself; and at least
     * those its predicted search time takes ({@code admission.search}), whatever its memory.
     */
    static String tiersFor(CompileEstimate estimate, Gateways gateways, SearchTiers searchTiers) {
        GatewaySettings settings = gateways.settings();
        if (estimate.bypass()) {
            return "none (not planned, or one relation)";
        }
        int floor = searchTiers.floor(estimate.searchSeconds()).map(tier -> tier.ordinal() + 1).orElse(0);
        Optional<Tier> highest = highestTier(estimate, gateways, searchTiers);
        if (highest.isEmpty()) {
            return "none (below t0 = " + Sizes.bytes(settings.staticThresholdBytes()) + ")";
        }
        List<String> tiers = new ArrayList<>();
        for (Tier tier : Tier.values()) {
            if (tier.ordinal() <= highest.get().ordinal()) {
                tiers.add(tier.configName());
            }
        }
        String tierList = String.join(", ", tiers);
        return floor == 0 ? tierList : tierList + " (search predicted at " + searchSeconds(estimate.searchSeconds())
                + " s takes " + Tier.values()[floor - 1].configName() + " at least)";
    }

    /** The highest of {@link #tiersFor}; empty for a statement that takes none. */
    static Optional<Tier> highestTier(CompileEstimate estimate, Gateways gateways, SearchTiers searchTiers) {
        GatewaySettings settings = gateways.settings();
        int floor = searchTiers.floor(estimate.searchSeconds()).map(tier -> tier.ordinal() + 1).orElse(0);
        if (estimate.bypass() || floor == 0 && estimate.estimatedBytes() < settings.staticThresholdBytes()) {
            return Optional.empty();
        }
        long target = gateways.target();
        long t1 = (long) (target * settings.small().fraction() / (gateways.state(Tier.SMALL).active() + 1));
        if (floor <= 1 && estimate.estimatedBytes() < t1) {
            return Optional.of(Tier.SMALL);
        }
        long t2 = (long) (target * settings.medium().fraction() / (gateways.state(Tier.MEDIUM).active() + 1));
        return Optional.of(floor <= 2 && estimate.estimatedBytes() < t2 ? Tier.MEDIUM : Tier.LARGE);
    }

    /** A predicted search time in seconds, three significant digits; empty where the dialect predicts none. */
    static String searchSeconds(double seconds) {
        return seconds > 0 ? String.format(Locale.ROOT, "%.3g", seconds) : null;
    }

    /** SHOW CATALOGS: one row per database whose index catalog the estimates asked for; none without a monitor. */
    static ResultTable catalogs(ServerCatalogs catalogs) {
        return catalogs(catalogs.states());
    }

    /** The rows of SHOW CATALOGS for these databases. */
    static ResultTable catalogs(List<CatalogState> states) {
        ResultTable.Builder table = ResultTable.of("database", "state", "tables_with_indexes", "views",
                "inlinable_functions", "routines", "triggers", "age_s");
        for (CatalogState state : states) {
            table.row(state.database(), state.state(), state.tables(), state.views(), state.functions(),
                    state.routines(), state.triggers(), seconds(state.age()));
        }
        return table.build();
    }

    static String seconds(Duration duration) {
        return String.format(Locale.ROOT, "%.3f", duration.toNanos() / 1e9);
    }

    private static Optional<Long> boxed(OptionalLong value) {
        return value.isPresent() ? Optional.of(value.getAsLong()) : Optional.empty();
    }

    private static String number(double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }
}
