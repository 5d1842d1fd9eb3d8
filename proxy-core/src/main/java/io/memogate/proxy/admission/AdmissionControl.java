package io.memogate.proxy.admission;

import io.memogate.broker.Broker;
import io.memogate.broker.BrokerSettings;
import io.memogate.broker.BrokerState;
import io.memogate.broker.gateway.GatewayListener;
import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.Gateways;
import io.memogate.broker.gateway.LocalGateways;
import io.memogate.broker.gateway.ScheduledGatewayTimer;
import io.memogate.broker.probe.MemorySnapshot;
import io.memogate.broker.probe.postgres.PostgresProbe;
import io.memogate.estimator.CompileEstimate;
import io.memogate.estimator.lexer.LexicalAnalyzer;
import io.memogate.estimator.planner.MemoryCoefficients;
import io.memogate.estimator.planner.PlannerSettings;
import io.memogate.proxy.postgres.catalog.IndexCatalogs;
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
import java.util.function.Supplier;

/**
 * The estimator, the gateways and the broker wired together for one database server: the broker's published
 * state sets the gateways' target, feeds the measured memory of every server process into their
 * ledger (and forgets processes that ended), and gives sessions the server's planner defaults.
 *
 * <p>Without a broker (no monitoring connection configured) the gateways keep the static target and
 * sessions start from PostgreSQL's built-in planner defaults.
 */
public final class AdmissionControl implements AutoCloseable {

    /** The name of a proxy's only server where tests and benchmarks build one without a configuration. */
    public static final String ONLY_SERVER = "default";

    private final String server;
    private final CurrentEstimator estimator;
    private final ScheduledGatewayTimer timer = new ScheduledGatewayTimer();
    private final Gateways gateways;
    private final Optional<Broker> broker;
    private final IndexCatalogs indexCatalogs;
    private final AtomicReference<PlannerSettings> plannerDefaults = new AtomicReference<>(PlannerSettings.DEFAULTS);
    private final AdmissionSupport support;
    private final GatedAdmission hook;
    private final ServerAdmission admission;
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
     * @param staticTargetBytes the compile-memory target while no broker state says otherwise
     * @param estimates told each estimate that reaches the gateways (for metrics)
     */
    public AdmissionControl(GatewaySettings gatewaySettings, long staticTargetBytes, Optional<BrokerSettings> brokerSettings,
            Duration waitNoticeAfter, GatewayListener gatewayListener, Consumer<CompileEstimate> estimates) {
        this(new CurrentEstimator(MemoryCoefficients.DEFAULTS), IndexCatalogs.NONE, gatewaySettings, staticTargetBytes,
                brokerSettings, () -> waitNoticeAfter, gatewayListener, estimates);
    }

    /**
     * Statements planned while they run keep their permits for {@link RunningHold#DEFAULT} at most.
     *
     * @param indexCatalogs the databases' indexes for the estimates; closed with this
     * @param waitNoticeAfter read at each wait, so that a reload changes it for statements from then on
     */
    public AdmissionControl(CurrentEstimator estimator, IndexCatalogs indexCatalogs, GatewaySettings gatewaySettings,
            long staticTargetBytes, Optional<BrokerSettings> brokerSettings, Supplier<Duration> waitNoticeAfter,
            GatewayListener gatewayListener, Consumer<CompileEstimate> estimates) {
        this(ONLY_SERVER, estimator, indexCatalogs, gatewaySettings, staticTargetBytes, brokerSettings,
                waitNoticeAfter, () -> RunningHold.DEFAULT, gatewayListener, estimates);
    }

    /**
     * @param server the backend's name, as metrics, logs and the admin console name the server
     * @param indexCatalogs the databases' indexes for the estimates; closed with this
     * @param waitNoticeAfter read at each wait, so that a reload changes it for statements from then on
     * @param holdWhileRunning how long a statement planned while it runs keeps its permits at most, read as
     *     each statement asks for admission (a reload changes it for statements from then on); released on
     *     the gateways' timer thread, so no thread of its own
     */
    public AdmissionControl(String server, CurrentEstimator estimator, IndexCatalogs indexCatalogs,
            GatewaySettings gatewaySettings, long staticTargetBytes, Optional<BrokerSettings> brokerSettings,
            Supplier<Duration> waitNoticeAfter, Supplier<Duration> holdWhileRunning, GatewayListener gatewayListener,
            Consumer<CompileEstimate> estimates) {
        this.server = Objects.requireNonNull(server, "server");
        this.estimator = estimator;
        this.indexCatalogs = indexCatalogs;
        this.gateways = new LocalGateways(gatewaySettings, staticTargetBytes, System::nanoTime, timer, gatewayListener);
        this.broker = brokerSettings.map(settings -> new Broker(settings,
                PostgresProbe.FACTORY, System::nanoTime, this::published));
        this.support = new AdmissionSupport(plannerDefaults::get, indexCatalogs::roleSettingsOf, indexCatalogs::of,
                waitNoticeAfter, new LexicalAnalyzer());
        this.hook = new GatedAdmission(estimator, indexCatalogs, gateways, estimates,
                pid -> closedAt.put(pid, System.nanoTime()), new RunningHold(holdWhileRunning, timer));
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

    /** The databases' index catalogs the estimates read. */
    public IndexCatalogs indexCatalogs() {
        return indexCatalogs;
    }

    public Optional<Broker> broker() {
        return broker;
    }

    public CurrentEstimator estimator() {
        return estimator;
    }

    /** The planner settings a new session starts from: the server's, as the broker last read them. */
    public PlannerSettings plannerDefaults() {
        return plannerDefaults.get();
    }

    /** Called on the broker's thread after every poll, good or failed. */
    void published(BrokerState state) {
        gateways.target(state.targetBytes());
        plannerDefaults.set(plannerSettings(state.plannerSettings()));
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
                gateways.retained(pid, bytes);
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

    /** The server's own defaults of the settings the planner model uses, over PostgreSQL's built-in ones. */
    static PlannerSettings plannerSettings(Map<String, String> server) {
        PlannerSettings settings = PlannerSettings.DEFAULTS;
        for (Map.Entry<String, String> setting : server.entrySet()) {
            settings = settings.with(setting.getKey(), setting.getValue());
        }
        return settings;
    }

    @Override
    public void close() {
        broker.ifPresent(Broker::close);
        indexCatalogs.close();
        timer.close();
    }
}
