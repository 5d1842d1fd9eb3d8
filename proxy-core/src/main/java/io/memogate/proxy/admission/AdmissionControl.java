package io.memogate.proxy.admission;

import io.memogate.broker.Broker;
import io.memogate.broker.BrokerLeadership;
import io.memogate.broker.BrokerMode;
import io.memogate.broker.BrokerRole;
import io.memogate.broker.BrokerSettings;
import io.memogate.broker.BrokerState;
import io.memogate.broker.FleetMember;
import io.memogate.broker.gateway.CompileMemoryRetention;
import io.memogate.broker.gateway.GatewayListener;
import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.GatewayTimer;
import io.memogate.broker.gateway.Gateways;
import io.memogate.broker.gateway.LocalGateways;
import io.memogate.broker.gateway.ScheduledGatewayTimer;
import io.memogate.broker.probe.MemorySnapshot;
import io.memogate.estimator.Catalog;
import io.memogate.estimator.CompileEstimate;
import io.memogate.estimator.PreparedStatementTexts;
import io.memogate.estimator.dialect.DialectSettings;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The estimator, the gateways and the broker wired together for one database server: the broker's published
 * state sets the gateways' target, feeds the measured memory of every server process into their
 * ledger (and forgets processes that ended), and gives sessions the server's defaults of the settings the
 * estimator reads. What differs by kind of server (its probe, its settings) comes from its {@link ServerKind}.
 *
 * <p>Without a broker (no monitoring connection configured) the gateways keep the static target and
 * sessions start from the kind's built-in defaults.
 */
public final class AdmissionControl implements AutoCloseable {

    /** The name of a proxy's only server where tests and benchmarks build one without a configuration. */
    public static final String ONLY_SERVER = "default";

    private final String server;
    private final ServerKind kind;
    private final EstimatorInForce estimator;
    private final ScheduledGatewayTimer timer = new ScheduledGatewayTimer();
    private final Gateways gateways;
    private final Optional<Broker> broker;
    private final ServerCatalogs catalogs;
    private final AtomicReference<DialectSettings> serverDefaults;
    private final AdmissionSupport support;
    private final GatedAdmission hook;
    private final ServerAdmission admission;
    private final StatementRecords statements;
    private final DegradeCounts degradeCounts = new DegradeCounts();
    private final Supplier<DegradePolicy> degrade;
    /** Asked by the console: the hook's own is asked for each session's statement. */
    private final Degrader explainDegrader;
    /** Server processes the ledger was told about by measurement; only the broker's thread touches it. */
    private final Set<Long> measured = new HashSet<>();
    /**
     * When sessions saw their server connections close (pid -> System.nanoTime()): a poll that started
     * before a close, or just after it while the backend was still exiting, may still report the process,
     * which must not come back into the ledger. Process ids are not reused within seconds.
     */
    private static final long EXIT_GRACE_NANOS = TimeUnit.SECONDS.toNanos(5);
    private final Map<Long, Long> closedAt = new ConcurrentHashMap<>();

    /**
     * The admission of the server {@code server}, a server of {@code kind}, its gateways sized by
     * {@code gatewaySettings}; see {@link Builder}.
     */
    public static Builder builder(String server, ServerKind kind, GatewaySettings gatewaySettings) {
        return new Builder(server, kind, gatewaySettings);
    }

    private AdmissionControl(Builder built) {
        this.server = built.server;
        this.kind = built.kind;
        this.serverDefaults = new AtomicReference<>(kind.builtInDefaults());
        this.estimator = built.estimator;
        this.catalogs = built.catalogs;
        this.gateways = built.gateways.create(built.gatewaySettings, built.staticTargetBytes, timer,
                built.gatewayListener, kind.retention());
        // In a fleet, one broker per server polls for all: the others follow the target it publishes.
        this.broker = built.brokerSettings.map(settings -> new Broker(settings, kind.probe(), System::nanoTime,
                this::published, gateways instanceof FleetMember fleet ? fleet.brokerLeadership(settings.interval())
                        : BrokerLeadership.ALONE));
        this.support = new AdmissionSupport(serverDefaults::get, catalogs::loginSettingsOf, catalogs::of,
                built.waitNoticeAfter, estimator.get().dialect().analyzer());
        this.statements = new StatementRecords(server, built.statementRecords, System::nanoTime);
        this.degrade = built.degrade;
        this.explainDegrader = new Degrader(built.degrade, estimator, gateways::target);
        this.hook = new GatedAdmission(estimator, catalogs, gateways, built.estimates,
                pid -> closedAt.put(pid, System.nanoTime()), new RunningHold(built.holdWhileRunning, timer),
                statements, built.searchTiers, built.degrade, degradeCounts, new WaitPredictor(built.holdClock));
        this.admission = new ServerAdmission(hook, support);
    }

    /** Starts polling the server, if a broker is configured. */
    public AdmissionControl start() {
        broker.ifPresent(Broker::start);
        return this;
    }

    /** The backend's name. */
    public String server() {
        return server;
    }

    public AdmissionHook hook() {
        return hook;
    }

    /** What a session routed to this server uses. */
    public ServerAdmission admission() {
        return admission;
    }

    public AdmissionSupport support() {
        return support;
    }

    public Gateways gateways() {
        return gateways;
    }

    /**
     * What EXPLAIN ADMISSION says of degrading {@code estimate}, the estimate of {@code sql} under {@code settings}:
     * the settings it would run under and its estimate there when it can never fit the target, whoever sends it
     * ({@code admission.degrade} names whose statements are degraded); empty when it fits, or nothing fits.
     */
    public Optional<Degraded> degradeFor(String sql, DialectSettings settings, Catalog catalog,
                                         CompileEstimate estimate) {
        return explainDegrader.fitting(sql, settings, PreparedStatementTexts.NONE, catalog, estimate,
                kind.degradeLadder(settings)).map(Degrader.Choice::degraded);
    }

    /** Whether admission.degrade is on for some sessions. */
    public boolean degrades() {
        return degrade.get().enabled();
    }

    /** How long statements of this server held their tiers, and what that predicts of a queued one's wait. */
    public WaitPredictor waits() {
        return hook.waits();
    }

    /** How many statements this server's admission degraded, by tier. */
    public DegradeCounts degradeCounts() {
        return degradeCounts;
    }

    /** The last statements this server's admission decided about, when the builder asked to keep them. */
    public StatementRecords statements() {
        return statements;
    }

    /** The kind of server this is. */
    public ServerKind kind() {
        return kind;
    }

    /** The databases' catalogs the estimates read. */
    public ServerCatalogs catalogs() {
        return catalogs;
    }

    public Optional<Broker> broker() {
        return broker;
    }

    public EstimatorInForce estimator() {
        return estimator;
    }

    /** The settings a new session's statements are estimated with: the server's, as the broker last read them. */
    public DialectSettings serverDefaults() {
        return serverDefaults.get();
    }

    /** Called on the broker's thread after every poll, good or failed. */
    void published(BrokerState state) {
        // In a fleet the leader sets the target for all: a follower's copy of it may be a poll older. A follower
        // sets it only once the leader's publication is too old to steer by, as a broker alone falls to static.
        if (state.role().kind() != BrokerRole.Kind.FOLLOWER || state.mode() == BrokerMode.STATIC) {
            gateways.target(state.targetBytes());
        }
        serverDefaults.set(kind.defaults(state.plannerSettings()));
        Map<Integer, Long> privateBytes = state.privateBytesByPid();
        if (privateBytes.isEmpty()) {
            return; // not co-located, or nothing known: the ledger keeps its estimate-based figures
        }
        long takenAt = state.lastGoodSnapshot().map(MemorySnapshot::takenAtNanos).orElse(Long.MIN_VALUE);
        Set<Long> now = new HashSet<>();
        privateBytes.forEach((pid, bytes) -> {
            Long closed = closedAt.get((long) pid);
            if (closed == null || takenAt - closed > EXIT_GRACE_NANOS) {
                now.add((long) pid);
                gateways.retained(pid, kind.retention().afterMeasurement(gateways.retainedBy(pid), bytes));
            }
        });
        closedAt.values().removeIf(closed -> takenAt - closed > EXIT_GRACE_NANOS);
        // A process measured before and gone now has exited, whoever it belonged to: its memory is free.
        for (Long gone : measured) {
            if (!now.contains(gone)) {
                gateways.connectionClosed(gone);
            }
        }
        measured.clear();
        measured.addAll(now);
    }

    /** Builds a server's gateways: this proxy's own ({@link LocalGateways}), or a fleet's. */
    @FunctionalInterface
    public interface GatewaysFactory {

        GatewaysFactory LOCAL = (settings, targetBytes, timer, listener, retention) ->
                new LocalGateways(settings, targetBytes, System::nanoTime, timer, listener, retention);

        /** Gateways the admission closes with itself when they are {@link AutoCloseable}. */
        Gateways create(GatewaySettings settings, long targetBytes, GatewayTimer timer, GatewayListener listener,
                        CompileMemoryRetention retention);
    }

    /**
     * What a server's admission is made of, each part with the default a test or benchmark wants when it does
     * not care: the kind's estimator with its default coefficients, no catalogs, {@code broker.staticTarget}'s
     * default, no broker, a wait notice after one second, {@link RunningHold#DEFAULT}, no listener, estimates
     * told to nobody, no statement records, {@link SearchTiers#DEFAULTS}, this proxy's own gateways.
     */
    public static final class Builder {
        private final String server;
        private final ServerKind kind;
        private final GatewaySettings gatewaySettings;
        private EstimatorInForce estimator;
        private ServerCatalogs catalogs = ServerCatalogs.NONE;
        private long staticTargetBytes = BrokerSettings.DEFAULT_STATIC_TARGET_BYTES;
        private Optional<BrokerSettings> brokerSettings = Optional.empty();
        private Supplier<Duration> waitNoticeAfter = () -> Duration.ofSeconds(1);
        private Supplier<Duration> holdWhileRunning = () -> RunningHold.DEFAULT;
        private GatewayListener gatewayListener = GatewayListener.NONE;
        private Consumer<CompileEstimate> estimates = estimate -> { };
        private IntSupplier statementRecords = () -> 0;
        private Supplier<SearchTiers> searchTiers = () -> SearchTiers.DEFAULTS;
        private GatewaysFactory gateways = GatewaysFactory.LOCAL;
        private Supplier<DegradePolicy> degrade = () -> DegradePolicy.OFF;
        private LongSupplier holdClock = System::nanoTime;

        private Builder(String server, ServerKind kind, GatewaySettings gatewaySettings) {
            this.server = Objects.requireNonNull(server, "server");
            this.kind = Objects.requireNonNull(kind, "kind");
            this.gatewaySettings = Objects.requireNonNull(gatewaySettings, "gatewaySettings");
        }

        /** The estimator in force, which a reload may give other coefficients. */
        public Builder estimator(EstimatorInForce estimator) {
            this.estimator = Objects.requireNonNull(estimator, "estimator");
            return this;
        }

        /** The databases' catalogs the estimates read, by the kind's own reader; closed with the admission. */
        public Builder catalogs(ServerCatalogs catalogs) {
            this.catalogs = Objects.requireNonNull(catalogs, "catalogs");
            return this;
        }

        /** The compile-memory target while no broker state says otherwise. */
        public Builder staticTargetBytes(long bytes) {
            this.staticTargetBytes = bytes;
            return this;
        }

        /** The broker that polls the server and sets the target; empty: the target stays static. */
        public Builder broker(Optional<BrokerSettings> settings) {
            this.brokerSettings = Objects.requireNonNull(settings, "settings");
            return this;
        }

        /** Read at each wait, so that a reload changes it for statements from then on. */
        public Builder waitNotice(Supplier<Duration> after) {
            this.waitNoticeAfter = Objects.requireNonNull(after, "after");
            return this;
        }

        /**
         * How long a statement planned while it runs keeps its permits at most, read as each statement asks
         * for admission; released on the gateways' timer thread, so no thread of its own.
         */
        public Builder holdWhileRunning(Supplier<Duration> hold) {
            this.holdWhileRunning = Objects.requireNonNull(hold, "hold");
            return this;
        }

        /** Told of each admission and refusal (metrics). */
        public Builder gatewayListener(GatewayListener listener) {
            this.gatewayListener = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /** Told each estimate that reaches the gateways (metrics). */
        public Builder estimates(Consumer<CompileEstimate> estimates) {
            this.estimates = Objects.requireNonNull(estimates, "estimates");
            return this;
        }

        /**
         * Keeps a record of the last {@code count} statements admission decided about ({@link #statements()});
         * read at each statement, so that a reload changes it at once.
         */
        public Builder statementRecords(IntSupplier count) {
            this.statementRecords = Objects.requireNonNull(count, "count");
            return this;
        }

        /** The tiers long predicted join searches take, read at each statement, so that a reload changes them. */
        public Builder searchTiers(Supplier<SearchTiers> tiers) {
            this.searchTiers = Objects.requireNonNull(tiers, "tiers");
            return this;
        }

        /** Whose statements may run under tighter settings instead of never fitting; read at each statement. */
        public Builder degrade(Supplier<DegradePolicy> policy) {
            this.degrade = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /** The clock statements' holds of their permits are timed with, for predicted waits; the system's by default. */
        public Builder holdClock(LongSupplier nanoTime) {
            this.holdClock = Objects.requireNonNull(nanoTime, "nanoTime");
            return this;
        }

        /** Where the gateways are kept: this proxy, or the Redis of its fleet. */
        public Builder gateways(GatewaysFactory factory) {
            this.gateways = Objects.requireNonNull(factory, "factory");
            return this;
        }

        /** The admission, its broker not yet polling ({@link AdmissionControl#start()}). */
        public AdmissionControl build() {
            if (estimator == null) {
                estimator = kind.estimator();
            }
            return new AdmissionControl(this);
        }
    }

    @Override
    public void close() {
        broker.ifPresent(Broker::close);
        catalogs.close();
        timer.close();
        if (gateways instanceof AutoCloseable shared) {
            try {
                shared.close(); // a fleet's: what this proxy holds goes back to the others
            } catch (Exception e) {
                throw new IllegalStateException("closing the gateways of server " + server + " failed", e);
            }
        }
    }
}
