package io.memogate.proxy.admin;

import io.memogate.broker.gateway.Tier;
import io.memogate.estimator.Catalog;
import io.memogate.estimator.EstimatorStatistics;
import io.memogate.proxy.MemogateVersion;
import io.memogate.proxy.admission.AdmissionControl;
import io.memogate.proxy.admission.EstimatorInForce;
import io.memogate.proxy.admission.NoSuchDatabaseException;
import io.memogate.proxy.admission.ServerAdmissions;
import io.memogate.proxy.admission.ServerCatalogs;
import io.memogate.proxy.admission.SessionInfo;
import io.memogate.proxy.admission.StatementRecords;
import io.memogate.proxy.config.BackendConfig;
import io.memogate.proxy.config.ConfigException;
import io.memogate.proxy.config.ConfigSettings;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.config.TierField;
import io.memogate.proxy.reload.ConfigChange;
import io.memogate.proxy.reload.ConfigReloader;
import io.memogate.proxy.reload.ReloadOutcome;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin console's commands (see {@link ConsoleCommand}), over the proxy's own state: the gateways and
 * the broker, the open sessions, and the configuration in force. Reads answer at once; changes (SET,
 * RELOAD) go through the {@link ConfigReloader} and PAUSE/RESUME to the gateways, each logged with who
 * asked. Protocol-neutral: the PostgreSQL session turns results and {@link ConsoleException}s into
 * messages.
 */
public final class AdminConsole implements ConsoleService {

    private static final Logger log = LoggerFactory.getLogger(AdminConsole.class);
    /** The longest EXPLAIN ADMISSION DATABASE waits for a catalog read (a read's own timeouts are 10 s). */
    static final Duration CATALOG_WAIT = Duration.ofSeconds(30);

    private final ConfigReloader reloader;
    private final Optional<ServerAdmissions> admission;
    private final EstimatorInForce estimator;
    private final ConnectionsView connections;
    private final Clock clock;
    private final Instant started;

    /**
     * @param admission each server's gateways and broker; empty when admission.enabled is false
     * @param estimator the estimator admission uses, so EXPLAIN ADMISSION answers what admission would
     */
    public AdminConsole(ConfigReloader reloader, Optional<ServerAdmissions> admission, EstimatorInForce estimator,
                        ConnectionsView connections, Clock clock) {
        this.reloader = Objects.requireNonNull(reloader, "reloader");
        this.admission = Objects.requireNonNull(admission, "admission");
        this.estimator = Objects.requireNonNull(estimator, "estimator");
        this.connections = Objects.requireNonNull(connections, "connections");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.started = clock.instant();
    }

    @Override
    public boolean admits(String role) {
        return reloader.current().get().admin().isConsoleUser(role);
    }

    @Override
    public String authDatabase() {
        return reloader.current().get().admin().authDatabase();
    }

    @Override
    public CompletionStage<ConsoleResult> execute(String command, SessionInfo caller) {
        try {
            return switch (ConsoleCommandParser.parse(command)) {
                case ConsoleCommand.ShowCommand show -> show(show.what());
                case ConsoleCommand.ExplainAdmission explain -> explain(explain);
                case ConsoleCommand.Set set -> set(set, caller);
                case ConsoleCommand.ClientSet ignored -> done(ConsoleResult.done("SET"));
                case ConsoleCommand.Reload ignored -> reload(caller);
                case ConsoleCommand.Pause ignored -> done(pause(caller));
                case ConsoleCommand.Resume ignored -> done(resume(caller));
                case ConsoleCommand.RefreshCatalogs refresh -> refreshCatalogs(refresh.database(), caller);
                case ConsoleCommand.CancelSession cancel -> onSession("CANCEL", cancel.serverPid(), cancel.backend(),
                        caller, connections.cancel(cancel.serverPid(), cancel.backend(), String.valueOf(caller)));
                case ConsoleCommand.KillSession kill -> onSession("KILL", kill.serverPid(), kill.backend(), caller,
                        connections.terminate(kill.serverPid(), kill.backend(), String.valueOf(caller)));
            };
        } catch (ConsoleException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * EXPLAIN ADMISSION: with DATABASE, estimated with that database's indexes as its sessions are, after
     * waiting for its catalog's read when none is in yet (at most {@link #CATALOG_WAIT}); else from the SQL.
     * A database no backend serves, or that its server says does not exist, is an error naming it: an
     * estimate "from the SQL" would hide the typo.
     */
    private CompletionStage<ConsoleResult> explain(ConsoleCommand.ExplainAdmission explain) {
        explain.database().filter(database -> reloader.current().get().backendFor(database).isEmpty())
                .ifPresent(database -> {
                    throw noSuchDatabase(database, "Memogate routes no backend for database \"" + database
                            + "\" and no backend is marked default, so sessions cannot use it either");
                });
        Optional<AdmissionControl> server = serverOf(explain.database());
        ServerCatalogs catalogs = server.map(AdmissionControl::catalogs).orElse(ServerCatalogs.NONE);
        CompletableFuture<Catalog> catalog = explain.database()
                .map(database -> catalogs.whenRead(database).completeOnTimeout(Catalog.NONE,
                        CATALOG_WAIT.toSeconds(), TimeUnit.SECONDS))
                .orElse(CompletableFuture.completedFuture(Catalog.NONE));
        return catalog.handle((read, failure) -> {
            Throwable cause = failure instanceof CompletionException wrapped ? wrapped.getCause() : failure;
            if (cause instanceof NoSuchDatabaseException missing) {
                throw noSuchDatabase(missing.database(), missing.getMessage());
            }
            if (cause != null) {
                throw new CompletionException(cause);
            }
            // Without admission, no server was read: null stands for the estimator's built-in defaults.
            // The server's own estimator: a MySQL server's statements are estimated by its dialect.
            return ConsoleResult.rows("EXPLAIN", AdmissionViews.explain(
                    server.map(s -> s.estimator().get()).orElseGet(estimator),
                    server.map(AdmissionControl::serverDefaults).orElse(null),
                    explain.statements(), read, AdmissionViews.catalogUsed(explain.database(), catalogs, read), server,
                    reloader.current().get().admission().searchTiers()));
        });
    }

    /** PostgreSQL's words for a database that is not there; {@code why} (a sentence) says who found it missing. */
    private static ConsoleException noSuchDatabase(String database, String why) {
        return new ConsoleException(ConsoleException.Kind.UNKNOWN_DATABASE,
                "database \"" + database + "\" does not exist", why + ".",
                "Name a database the proxy serves (SHOW BACKENDS lists the routing), or leave DATABASE out to "
                        + "estimate from the SQL alone.");
    }

    private CompletionStage<ConsoleResult> show(ConsoleCommand.Show what) {
        return switch (what) {
            case TIERS -> done(ConsoleResult.rows("SHOW", AdmissionViews.perServer(servers("SHOW TIERS"),
                    server -> AdmissionViews.tiers(server.gateways()))));
            case QUEUE -> done(ConsoleResult.rows("SHOW", AdmissionViews.perServer(servers("SHOW QUEUE"),
                    server -> AdmissionViews.queue(server.gateways(), server.waits()))));
            case STATEMENTS -> done(statements());
            case BROKER -> done(ConsoleResult.rows("SHOW", AdmissionViews.perServer(servers("SHOW BROKER"),
                    server -> AdmissionViews.broker(server.broker(), server.gateways()))));
            case CATALOGS -> done(ConsoleResult.rows("SHOW", admission.isEmpty()
                    ? AdmissionViews.catalogs(ServerCatalogs.NONE)
                    : AdmissionViews.perServer(admission.get().all(), server -> AdmissionViews.catalogs(server.catalogs()))));
            case CONFIG -> done(ConsoleResult.rows("SHOW", config()));
            case VERSION -> done(ConsoleResult.rows("SHOW", ResultTable.of("version").row(MemogateVersion.text()).build()));
            case HELP -> done(ConsoleResult.rows("SHOW", help()));
            case CLIENTS -> connections.clients().thenApply(all -> ConsoleResult.rows("SHOW", ConnectionViews.clients(all)));
            case SERVERS -> connections.clients().thenApply(all -> ConsoleResult.rows("SHOW", ConnectionViews.servers(all)));
            case BACKENDS -> connections.clients().thenApply(all -> ConsoleResult.rows("SHOW",
                    ConnectionViews.backends(reloader.current().get().backends(), all)));
            case STATS -> connections.clients().thenApply(all -> ConsoleResult.rows("SHOW", stats(all)));
        };
    }

    /**
     * SHOW STATEMENTS, each server's records in turn; a NOTICE says how many older ones were forgotten. With no
     * records kept, an error that says how to have them: an empty result would read as "no statement came".
     */
    private ConsoleResult statements() {
        List<AdmissionControl> servers = servers("SHOW STATEMENTS");
        int capacity = reloader.current().get().admission().statementRecords();
        if (capacity == 0) {
            throw new ConsoleException(ConsoleException.Kind.UNAVAILABLE,
                    "SHOW STATEMENTS needs admission.statementRecords, and it is 0: no statement is recorded",
                    "The records are off by default; each costs memory for as long as it is kept.",
                    "Set admission.statementRecords (e.g. 1000) in the configuration file and RELOAD: statements "
                            + "from then on are recorded.");
        }
        Map<String, StatementRecords.Window> windows = new LinkedHashMap<>();
        servers.forEach(server -> windows.put(server.server(), server.statements().window()));
        ConsoleResult result = ConsoleResult.rows("SHOW", AdmissionViews.perServer(servers,
                server -> StatementViews.statements(windows.get(server.server()))));
        long dropped = windows.values().stream().mapToLong(StatementRecords.Window::dropped).sum();
        return dropped == 0 ? result : result.withNotice(dropped + " older statements are no longer remembered: "
                + "each server keeps its last " + capacity + " (admission.statementRecords)");
    }

    private ResultTable config() {
        ResultTable.Builder table = ResultTable.of("key", "value", "applies");
        for (ConfigSettings.Setting setting : ConfigSettings.of(reloader.current().get())) {
            table.row(setting.key(), setting.value(), setting.applies().label());
        }
        return table.build();
    }

    private static ResultTable help() {
        ResultTable.Builder table = ResultTable.of("command", "what");
        List<String> what = List.of(
                "each gateway: limit, holders, waiters, threshold, fraction, queue length, timeout, totals",
                "each statement waiting for admission: queue, place, client, wait, estimate, fingerprint",
                "the last statements admission decided about (admission.statementRecords): outcome, tier, wait,"
                        + " refusal, estimate, fingerprint",
                "sessions, server connections, pause, the byte budget, the estimator, reloads",
                "client sessions: who, from where, state, server process, what they wait for",
                "server connections: backend, process id, whose session",
                "each backend: address, TLS, the databases routed to it, its sessions and server connections now"
                        + " (also SHOW DATABASES)",
                "the broker: mode, compile-memory target, snapshot age, pressure signals, failures",
                "each database's catalog the estimates read: state, tables with indexes, views, inlinable"
                        + " functions, routines, triggers, age of the read",
                "every setting in force, and whether a change applies live, to new sessions, or on restart",
                "the running Memogate's version, as memogate --version prints it",
                "this list",
                "the estimator's dry run for a statement (with DATABASE, counting that database's indexes),"
                        + " and the gateways it would take now; nothing runs",
                "change a gateway setting now (limit, fraction, maxQueue, timeout); not written to the file",
                "read the configuration file again; a file that does not validate changes nothing",
                "admit no new statement at or above t0; admitted ones finish",
                "admit again, in arrival order",
                "read the catalogs (indexes, views, functions, role settings) of every database read so far, or of"
                        + " the one named, again now; the reads before serve until the new ones are in",
                "cancel that session's statement: withdrawn if it waits for admission, else a cancel to the server",
                "end that session, as pg_terminate_backend would (FATAL 57P01 to its client)");
        for (int i = 0; i < ConsoleCommand.SYNOPSIS.size(); i++) {
            table.row(ConsoleCommand.SYNOPSIS.get(i), what.get(i));
        }
        return table.build();
    }

    private ResultTable stats(List<ClientView> sessions) {
        ResultTable.Builder table = ResultTable.of("name", "value");
        table.row("uptime_s", AdmissionViews.seconds(Duration.between(started, clock.instant())));
        table.row("client_connections", sessions.stream().filter(s -> !s.state().equals("console")).count());
        table.row("console_sessions", sessions.stream().filter(s -> s.state().equals("console")).count());
        table.row("server_connections", connections.serverConnectionCount());
        table.row("server_recycles", connections.serverRecycleCount());
        table.row("waiting_for_admission", sessions.stream().filter(s -> s.waiting() != null).count());
        table.row("admission", admission.isPresent() ? "enabled" : "disabled");
        EstimatorStatistics estimates = estimator.statistics();
        table.row("estimator_cache_hits", estimates.cacheHits());
        table.row("estimator_cache_misses", estimates.cacheMisses());
        table.row("estimator_fallbacks", estimates.lexicalFallbacks());
        ConfigReloader.Statistics reloads = reloader.statistics();
        table.row("config_file", reloader.file().map(Object::toString).orElse(null));
        table.row("config_reloads", reloads.reloads());
        table.row("config_reloads_refused", reloads.refused());
        table.row("config_last_reload", reloads.lastAt().map(at -> at + " " + reloads.lastOutcome().orElse(""))
                .orElse(null));
        ResultTable proxyWide = table.build();
        return AdmissionViews.perServer(proxyWide, admission.map(ServerAdmissions::all).orElse(List.of()),
                server -> AdmissionViews.stats(server.gateways(), server.statements(), server.degradeCounts()));
    }

    private CompletionStage<ConsoleResult> set(ConsoleCommand.Set set, SessionInfo caller) {
        List<AdmissionControl> servers = servers("SET");
        TierField field = TierField.parse(set.key()).orElseThrow(() -> new ConsoleException(
                ConsoleException.Kind.UNKNOWN_SETTING, "unrecognized setting \"" + set.key() + "\"",
                "The console can change: " + String.join(", ", TierField.paths()) + ".",
                "Other settings change in the configuration file, then RELOAD."));
        return reloader.set(field, set.value(), caller.toString()).handle((old, failure) -> {
            Throwable cause = failure instanceof CompletionException wrapped ? wrapped.getCause() : failure;
            if (cause instanceof ConfigException invalid) {
                throw new ConsoleException(ConsoleException.Kind.INVALID_VALUE, String.join("; ", invalid.problems()),
                        null, null);
            }
            if (cause != null) {
                throw new CompletionException(cause);
            }
            int holding = 0;
            int waiting = 0;
            for (AdmissionControl server : servers) {
                holding += server.gateways().state(field.tier()).active();
                waiting += server.gateways().state(field.tier()).waiting();
            }
            return ConsoleResult.done("SET", field.path() + " = " + field.valueIn(reloader.current().get())
                    + " (was " + old + "), in force now" + onServers(servers) + " with " + holding + " holding and "
                    + waiting + " waiting; not written to the configuration file: "
                    + "the next reload or restart takes the file's value");
        });
    }

    private CompletionStage<ConsoleResult> reload(SessionInfo caller) {
        if (reloader.file().isEmpty()) {
            throw new ConsoleException(ConsoleException.Kind.UNAVAILABLE,
                    "RELOAD needs a configuration file, and this proxy was started without one",
                    "bin/memogate demo builds its configuration in code.",
                    "Start the proxy with bin/memogate run --config FILE to reload it; SET changes the gateways now.");
        }
        return reloader.reload("RELOAD by " + caller).thenApply(outcome -> switch (outcome) {
            case ReloadOutcome.Refused refused -> throw new ConsoleException(ConsoleException.Kind.CONFIG_FILE,
                    refused.reason(), refused.problems().isEmpty() ? null : String.join("\n", refused.problems()),
                    "Fix the file and RELOAD again; the problem is also in the proxy's log.");
            case ReloadOutcome.Applied applied -> {
                ResultTable.Builder table = ResultTable.of("setting", "old", "new", "applied");
                for (ConfigChange change : applied.changes()) {
                    table.row(change.key(), change.oldValue(), change.newValue(), change.effect());
                }
                ConsoleResult result = ConsoleResult.rows("RELOAD", table.build());
                yield result.withNotice(applied.changes().isEmpty() ? "configuration unchanged" : applied.summary());
            }
        });
    }

    /**
     * REFRESH CATALOGS: the catalogs read again now (a view created, an index built), answered with SHOW
     * CATALOGS once the reads are in, or after {@link #CATALOG_WAIT} with those still reading shown so.
     */
    private CompletionStage<ConsoleResult> refreshCatalogs(Optional<String> database, SessionInfo caller) {
        List<AdmissionControl> servers = admission.map(ServerAdmissions::all).orElse(List.of());
        if (servers.stream().noneMatch(server -> server.catalogs().reads())) {
            throw new ConsoleException(ConsoleException.Kind.UNAVAILABLE,
                    "REFRESH CATALOGS needs broker.monitor, and this proxy reads no catalog without it",
                    "Estimates come from the SQL alone.",
                    "Configure broker.monitor (a role with pg_monitor) to have indexes, views and role settings read.");
        }
        database.filter(name -> reloader.current().get().backendFor(name).isEmpty()).ifPresent(name -> {
            throw noSuchDatabase(name, "Memogate routes no backend for database \"" + name
                    + "\" and no backend is marked default, so sessions cannot use it either");
        });
        log.info("catalogs of {} read again now, by {}", database.map(name -> "database " + name)
                .orElse("every database read so far"), caller);
        // A database's catalog is read on the server it is routed to; every server's, without one named.
        List<ServerCatalogs> reading = database.map(name -> serverOf(Optional.of(name)).stream())
                .orElseGet(servers::stream).map(AdmissionControl::catalogs).toList();
        CompletableFuture<Void> reads = CompletableFuture.allOf(reading.stream()
                .map(catalogs -> database.map(catalogs::refresh).orElseGet(catalogs::refreshAll))
                .toArray(CompletableFuture[]::new));
        return reads.completeOnTimeout(null, CATALOG_WAIT.toSeconds(), TimeUnit.SECONDS).handle((done, failure) -> {
            Throwable cause = failure instanceof CompletionException wrapped ? wrapped.getCause() : failure;
            if (cause instanceof NoSuchDatabaseException missing) {
                throw noSuchDatabase(missing.database(), missing.getMessage());
            }
            if (cause != null) {
                throw new CompletionException(cause);
            }
            return ConsoleResult.rows("REFRESH", AdmissionViews.catalogs(reading.stream()
                    .flatMap(catalogs -> database.map(name -> catalogs.state(name).stream())
                            .orElseGet(() -> catalogs.states().stream()))
                    .toList()));
        });
    }

    /**
     * CANCEL or KILL: what was done, as a NOTICE and in the log. No session with that server process is
     * 42704; sessions on several backends with it (each server numbers its own processes) are 42P09, naming
     * the backends for ON.
     */
    private static CompletionStage<ConsoleResult> onSession(
            String command, int serverPid, Optional<String> backend, SessionInfo caller,
            CompletionStage<ConnectionsView.SessionCommandOutcome> outcome) {
        String process = "server process " + serverPid + backend.map(name -> " on backend " + name).orElse("");
        return outcome.thenApply(result -> {
            if (result.backends().size() > 1) {
                throw new ConsoleException(ConsoleException.Kind.AMBIGUOUS_SESSION, "sessions on "
                        + result.backends().size() + " backends have " + process + ": "
                        + String.join(", ", result.backends()), "Nothing was done.", "Name the backend: " + command
                        + " " + serverPid + " ON " + result.backends().getFirst() + ".");
            }
            String done = result.done().orElseThrow(() -> new ConsoleException(ConsoleException.Kind.UNKNOWN_SESSION,
                    "no session of Memogate has " + process, null, "SHOW CLIENTS lists each session's server_pid"
                    + " and backend, SHOW QUEUE the server_pid of each waiting statement."));
            log.info("{} {} by {}: {}", command, serverPid, caller, done);
            return ConsoleResult.done(command, done);
        });
    }

    /** Logged at INFO only when it paused the gateways: the log is the record of what changed, and when. */
    private ConsoleResult pause(SessionInfo caller) {
        boolean paused = false;
        int holding = 0;
        for (AdmissionControl server : servers("PAUSE")) {
            paused |= server.gateways().pause();
            holding += server.gateways().state(Tier.SMALL).active();
        }
        if (paused) {
            log.info("gateways paused by {}: {} statements hold permits and finish; new ones queue", caller,
                    holding);
        } else {
            log.debug("PAUSE by {} changed nothing: the gateways were already paused", caller);
        }
        return ConsoleResult.done("PAUSE", (paused ? "paused: " : "already paused: ") + holding + " admitted statements "
                + "finish; new statements estimated at or above t0 queue (their tiers' timeouts still apply) until RESUME");
    }

    private ConsoleResult resume(SessionInfo caller) {
        boolean resumed = false;
        int waiting = 0;
        for (AdmissionControl server : servers("RESUME")) {
            waiting += server.gateways().waiting().size();
            resumed |= server.gateways().resume();
        }
        if (resumed) {
            log.info("gateways resumed by {}: {} statements were waiting", caller, waiting);
        } else {
            log.debug("RESUME by {} changed nothing: the gateways were not paused", caller);
        }
        return ConsoleResult.done("RESUME", resumed ? "resumed: " + waiting + " waiting statements go on in arrival order"
                : "not paused: nothing to resume");
    }

    /** Every server's admission, in configuration order; a console error when admission is disabled. */
    private List<AdmissionControl> servers(String command) {
        return admission.map(ServerAdmissions::all).orElseThrow(() -> new ConsoleException(
                ConsoleException.Kind.UNAVAILABLE, command + " needs the gateways, and admission is disabled",
                "admission.enabled is false in the configuration this proxy started with.",
                "Set admission.enabled: true and restart the proxy."));
    }

    /**
     * The admission of the server {@code database} is routed to, or, without a database, of the default
     * backend's server (else the first configured): what EXPLAIN ADMISSION estimates for.
     */
    private Optional<AdmissionControl> serverOf(Optional<String> database) {
        MemogateConfig config = reloader.current().get();
        Optional<BackendConfig> backend = database.map(config::backendFor)
                .orElseGet(() -> config.defaultBackend().or(() -> config.backends().stream().findFirst()));
        return admission.flatMap(servers -> backend.flatMap(b -> servers.find(b.name())));
    }

    /** " on servers a, b" when there are several, else nothing: one server needs no naming. */
    private static String onServers(List<AdmissionControl> servers) {
        return servers.size() < 2 ? "" : " on servers "
                + servers.stream().map(AdmissionControl::server).collect(Collectors.joining(", "));
    }

    private static <T> CompletionStage<T> done(T value) {
        return CompletableFuture.completedFuture(value);
    }
}
