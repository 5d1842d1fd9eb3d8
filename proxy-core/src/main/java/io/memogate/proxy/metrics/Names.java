package io.memogate.proxy.metrics;

/**
 * Every meter name Memogate registers, and the tags they carry, in one place: dashboards and alerts are
 * written against these, so a rename is a breaking change and should be visible in one diff.
 *
 * <p>Names are Micrometer's dotted form; the Prometheus registry snake-cases them, appends the base unit
 * unless the name already ends in it, and appends {@code _total} to counters. The Prometheus name each
 * constant must come out as is in its comment, with the meter type and base unit that produce it; bind
 * them that way ({@code NamesTest} renders the whole list). Counts of statements carry no base unit:
 * the unit would be appended ({@code memogate_gateway_admitted_statements_total}) and the product's
 * names are fixed. Everything with a physical unit (bytes, seconds, connections) declares it.
 */
public final class Names {

    private Names() {
    }

    // ---- tags ------------------------------------------------------------------------------------

    /** The gateway tier: {@code small}, {@code medium}, {@code large}. */
    public static final String TIER = "tier";
    /**
     * Why a statement was rejected, e.g. {@code timeout}, {@code queue_full}; or degraded: {@code never_fits},
     * {@code waited}, {@code predicted}.
     */
    public static final String REASON = "reason";
    /**
     * The database server (the backend's name) whose admission a meter counts: each server has its own
     * gateways, ledger and broker.
     */
    public static final String SERVER = "server";

    // ---- gateways (broker module) ------------------------------------------------------------------

    /** Gauge by {@link #TIER}, no unit: compilations admitted and not yet released. {@code memogate_gateway_active} */
    public static final String GATEWAY_ACTIVE = "memogate.gateway.active";
    /** Gauge by {@link #TIER}, no unit: statements queued for the tier. {@code memogate_gateway_waiting} */
    public static final String GATEWAY_WAITING = "memogate.gateway.waiting";
    /** Gauge by {@link #TIER}, no unit: concurrent compilations the tier allows. {@code memogate_gateway_limit} */
    public static final String GATEWAY_LIMIT = "memogate.gateway.limit";
    /** Gauge by {@link #TIER}, unit bytes: the estimate from which the tier applies. {@code memogate_gateway_threshold_bytes} */
    public static final String GATEWAY_THRESHOLD = "memogate.gateway.threshold";
    /** Counter by {@link #TIER}, no unit. {@code memogate_gateway_admitted_total} */
    public static final String GATEWAY_ADMITTED = "memogate.gateway.admitted";
    /** Counter by {@link #TIER}, no unit: waits that ran out. {@code memogate_gateway_timeouts_total} */
    public static final String GATEWAY_TIMEOUTS = "memogate.gateway.timeouts";
    /** Counter by {@link #TIER} and {@link #REASON}, no unit. {@code memogate_gateway_rejected_total} */
    public static final String GATEWAY_REJECTED = "memogate.gateway.rejected";
    /**
     * Counter by {@link #TIER} (that of the degraded estimate, or "none") and {@link #REASON}, no unit: statements
     * run under tighter planner settings because they could never fit the target, waited admission.degrade.after,
     * or were predicted to wait longer. {@code memogate_degraded_total}
     */
    public static final String DEGRADED = "memogate.degraded";
    /**
     * Timer by {@link #TIER} with a percentile histogram: time queued before admission.
     * {@code memogate_gateway_wait_seconds} (_bucket, _count, _sum)
     */
    public static final String GATEWAY_WAIT = "memogate.gateway.wait";

    /** Gauge, no unit: 1 while the admin console's PAUSE holds new statements, else 0. {@code memogate_gateway_paused} */
    public static final String GATEWAY_PAUSED = "memogate.gateway.paused";

    /** Gauge, unit bytes: what the byte budget's ledger holds (retained + in flight). {@code memogate_budget_used_bytes} */
    public static final String BUDGET_USED = "memogate.budget.used";
    /** Gauge, no unit: statements holding their tiers and waiting for the byte budget. {@code memogate_budget_waiting} */
    public static final String BUDGET_WAITING = "memogate.budget.waiting";

    // ---- estimator -------------------------------------------------------------------------------

    /** Distribution summary, unit bytes: estimates of statements sent to admission. {@code memogate_estimate_bytes} */
    public static final String ESTIMATE = "memogate.estimate";
    /**
     * Distribution summary, unit seconds: the join-search times the estimator predicted for statements sent to
     * admission, where its dialect predicts one (MySQL's). {@code memogate_estimate_search_seconds}
     */
    public static final String ESTIMATE_SEARCH = "memogate.estimate.search";
    /** Function counter, no unit. {@code memogate_estimator_cache_hits_total} */
    public static final String ESTIMATOR_CACHE_HITS = "memogate.estimator.cache.hits";
    /** Function counter, no unit. {@code memogate_estimator_cache_misses_total} */
    public static final String ESTIMATOR_CACHE_MISSES = "memogate.estimator.cache.misses";
    /** Function counter, no unit: estimates read off the tokens. {@code memogate_estimator_fallback_total} */
    public static final String ESTIMATOR_FALLBACK = "memogate.estimator.fallback";

    // ---- broker (broker module) --------------------------------------------------------------------

    /** Gauge, unit bytes: the compile-memory target the gateways divide. {@code memogate_broker_target_bytes} */
    public static final String BROKER_TARGET = "memogate.broker.target";
    /** Time gauge (seconds): age of the memory snapshot in use. {@code memogate_broker_snapshot_age_seconds} */
    public static final String BROKER_SNAPSHOT_AGE = "memogate.broker.snapshot.age";
    /** Counter, no unit. {@code memogate_broker_probe_failures_total} */
    public static final String BROKER_PROBE_FAILURES = "memogate.broker.probe.failures";

    /** Gauge by {@link #MODE}, no unit: 1 for the broker's current mode, 0 for the others. {@code memogate_broker_mode} */
    public static final String BROKER_MODE = "memogate.broker.mode";
    /** The broker's mode: {@code live}, {@code stale}, {@code static}; the fleet's: {@code fleet}, {@code local}. */
    public static final String MODE = "mode";

    // ---- the server's own gateways (broker-sqlserver) ---------------------------------------------

    /** The server's own compile gateway: SQL Server's {@code small}, {@code medium}, {@code big}. */
    public static final String GATEWAY = "gateway";
    /** Gauge by {@link #GATEWAY}, no unit: compiles holding the server's gateway. {@code memogate_server_gateway_active} */
    public static final String SERVER_GATEWAY_ACTIVE = "memogate.server.gateway.active";
    /** Gauge by {@link #GATEWAY}, no unit: compiles waiting at the server's gateway. {@code memogate_server_gateway_waiting} */
    public static final String SERVER_GATEWAY_WAITING = "memogate.server.gateway.waiting";
    /** Gauge by {@link #GATEWAY}, no unit: compiles the server's gateway allows at once. {@code memogate_server_gateway_limit} */
    public static final String SERVER_GATEWAY_LIMIT = "memogate.server.gateway.limit";

    // ---- fleet (broker-redis) -------------------------------------------------------------------

    /** Gauge by {@link #MODE} ({@code fleet}, {@code local}), no unit: 1 for the gateways in force. {@code memogate_fleet_mode} */
    public static final String FLEET_MODE = "memogate.fleet.mode";
    /** Gauge, no unit: live proxies of the fleet, as Redis last counted them. {@code memogate_fleet_instances} */
    public static final String FLEET_INSTANCES = "memogate.fleet.instances";
    /**
     * Gauge by {@link #ROLE} ({@code leader}, {@code follower}, {@code alone}), no unit: 1 for this proxy's part in
     * polling the server for the fleet. {@code memogate_fleet_broker_role}
     */
    public static final String FLEET_BROKER_ROLE = "memogate.fleet.broker.role";
    /** Gauge, no unit: the fencing epoch of the broker lease this proxy leads or follows, 0 when alone. {@code memogate_fleet_broker_epoch} */
    public static final String FLEET_BROKER_EPOCH = "memogate.fleet.broker.epoch";
    /** The broker's part in a fleet: {@code leader}, {@code follower}, {@code alone}. */
    public static final String ROLE = "role";

    // ---- proxy -----------------------------------------------------------------------------------

    /** Gauge, unit connections: client sessions open. {@code memogate_client_connections} */
    public static final String CLIENT_CONNECTIONS = "memogate.client.connections";
    /** Gauge, unit connections: backend server connections open. {@code memogate_server_connections} */
    public static final String SERVER_CONNECTIONS = "memogate.server.connections";
    public static final String SERVER_RECYCLES = "memogate.server.recycles";

    /** The event loop's thread name, as thread dumps show it and Netty's executor meters tag it. */
    public static final String LOOP = "name";
    /**
     * Timer by {@link #LOOP} with a percentile histogram: how late each event loop ran a task due at a known
     * time. {@code memogate_eventloop_lag_seconds} (_bucket, _count, _sum, _max)
     */
    public static final String EVENT_LOOP_LAG = "memogate.eventloop.lag";
}
