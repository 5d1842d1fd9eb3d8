package io.memogate.proxy.admission;

import io.memogate.broker.gateway.GatewayRejectedException;
import io.memogate.broker.gateway.Gateways;
import io.memogate.broker.gateway.Sizes;
import io.memogate.broker.gateway.Ticket;
import io.memogate.broker.gateway.Tier;
import io.memogate.estimator.Catalog;
import io.memogate.estimator.CompileEstimate;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.dialect.DialectSettings;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongConsumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admission hook that protects the server: each statement is estimated (DESIGN.md, "Data flow of
 * one statement", step 3) with the session's planner settings, and what the server will plan goes
 * through the gateways (step 4). Statements that bypass the estimator (utility statements, one
 * relation) and those below the gateways' static threshold pass at once, holding nothing.
 *
 * <p>One structured log line for each refused statement; nothing per admitted one.
 */
public final class GatedAdmission implements AdmissionHook {

    private static final Logger log = LoggerFactory.getLogger(GatedAdmission.class);

    /**
     * How long after its first statement a database's first catalog read is waited for (it takes a few tens
     * of milliseconds on a responsive server); statements after that are estimated from their SQL alone.
     */
    static final Duration FIRST_READ_WAIT = Duration.ofSeconds(2);
    /**
     * Texts at least this long are estimated off the session's event loop ({@link EstimatedLater}): their
     * estimate takes milliseconds to a second (generated bulk INSERTs, a 64 MiB text), which every other
     * session of that loop would wait through. Shorter ones, nearly all, take microseconds and no hop.
     */
    public static final int OFF_LOOP_CHARS = 256 * 1024;

    private final Supplier<CompileEstimator> estimator;
    private final ServerCatalogs catalogs;
    private final Gateways gateways;
    private final Consumer<CompileEstimate> estimates;
    private final LongConsumer closedConnections;
    private final RunningHold runningHold;
    private final StatementRecords records;
    private final Supplier<SearchTiers> searchTiers;
    private final Degrader degrader;
    private final DegradeCounts degradeCounts;
    private final WaitPredictor waits;

    /**
     * A statement planned while it runs keeps its permits until it ends, however long that takes.
     *
     * @param estimates told every estimate that reaches the gateways (metrics record their sizes)
     * @param closedConnections told each server connection that closed, after the gateways
     */
    public GatedAdmission(CompileEstimator estimator, Gateways gateways, Consumer<CompileEstimate> estimates,
            LongConsumer closedConnections) {
        this(() -> estimator, ServerCatalogs.NONE, gateways, estimates, closedConnections, RunningHold.UNTIL_END);
        Objects.requireNonNull(estimator, "estimator");
    }

    /**
     * @param estimator the estimator in force, asked for each statement (a reload may replace it)
     * @param catalogs the databases' catalogs (indexes, views, functions): a statement waits for its
     *     database's first read, up to {@link #FIRST_READ_WAIT}, and is estimated with the last read after
     * @param runningHold how long a statement planned while it runs keeps its permits at most
     */
    public GatedAdmission(Supplier<CompileEstimator> estimator, ServerCatalogs catalogs, Gateways gateways,
            Consumer<CompileEstimate> estimates, LongConsumer closedConnections, RunningHold runningHold) {
        this(estimator, catalogs, gateways, estimates, closedConnections, runningHold,
                StatementRecords.off(AdmissionControl.ONLY_SERVER));
    }

    /** @param records told how each statement's admission ended, when they keep any */
    public GatedAdmission(Supplier<CompileEstimator> estimator, ServerCatalogs catalogs, Gateways gateways,
            Consumer<CompileEstimate> estimates, LongConsumer closedConnections, RunningHold runningHold,
            StatementRecords records) {
        this(estimator, catalogs, gateways, estimates, closedConnections, runningHold, records,
                () -> SearchTiers.DEFAULTS);
    }

    /** @param searchTiers the tiers long predicted join searches take, read at each statement (a reload changes it) */
    public GatedAdmission(Supplier<CompileEstimator> estimator, ServerCatalogs catalogs, Gateways gateways,
            Consumer<CompileEstimate> estimates, LongConsumer closedConnections, RunningHold runningHold,
            StatementRecords records, Supplier<SearchTiers> searchTiers) {
        this(estimator, catalogs, gateways, estimates, closedConnections, runningHold, records, searchTiers,
                () -> DegradePolicy.OFF, new DegradeCounts());
    }

    /**
     * @param degrade whose statements may run under tighter settings when they can never fit the target, read at
     *     each statement
     * @param degradeCounts told of each statement degraded
     */
    public GatedAdmission(Supplier<CompileEstimator> estimator, ServerCatalogs catalogs, Gateways gateways,
            Consumer<CompileEstimate> estimates, LongConsumer closedConnections, RunningHold runningHold,
            StatementRecords records, Supplier<SearchTiers> searchTiers, Supplier<DegradePolicy> degrade,
            DegradeCounts degradeCounts) {
        this(estimator, catalogs, gateways, estimates, closedConnections, runningHold, records, searchTiers, degrade,
                degradeCounts, new WaitPredictor(System::nanoTime));
    }

    /**
     * @param waits told how long each statement held its permits, and asked how long one that joins a queue will
     *     wait: one that may degrade after waiting does so at once when that is longer than admission.degrade.after
     */
    public GatedAdmission(Supplier<CompileEstimator> estimator, ServerCatalogs catalogs, Gateways gateways,
            Consumer<CompileEstimate> estimates, LongConsumer closedConnections, RunningHold runningHold,
            StatementRecords records, Supplier<SearchTiers> searchTiers, Supplier<DegradePolicy> degrade,
            DegradeCounts degradeCounts, WaitPredictor waits) {
        this.waits = Objects.requireNonNull(waits, "waits");
        this.estimator = Objects.requireNonNull(estimator, "estimator");
        this.catalogs = Objects.requireNonNull(catalogs, "catalogs");
        this.gateways = Objects.requireNonNull(gateways, "gateways");
        this.estimates = Objects.requireNonNull(estimates, "estimates");
        this.closedConnections = Objects.requireNonNull(closedConnections, "closedConnections");
        this.runningHold = Objects.requireNonNull(runningHold, "runningHold");
        this.records = Objects.requireNonNull(records, "records");
        this.searchTiers = Objects.requireNonNull(searchTiers, "searchTiers");
        this.degrader = new Degrader(degrade, estimator, gateways::target);
        this.degradeCounts = Objects.requireNonNull(degradeCounts, "degradeCounts");
    }

    @Override
    public Admission admit(StatementRequest request) {
        return admit(request, List.of());
    }

    /**
     * Statements estimated off the event loop (a long text, or one waiting for its database's first catalog
     * read) are not degraded: they are admitted as without a ladder.
     */
    @Override
    public Admission admit(StatementRequest request, List<Degradation> ladder) {
        String database = request.session().database();
        Optional<CompletableFuture<Catalog>> firstRead = catalogs.firstRead(database, FIRST_READ_WAIT);
        if (firstRead.isPresent()) {
            // The same read brings the settings its sessions get at login: the estimate takes them too.
            Function<LoginSettings, DialectSettings> settings = request.settingsWithLogin().get();
            return new EstimatedLater(firstRead.get(), catalog -> admit(
                    request.withSettings(settings.apply(catalogs.loginSettingsOf(database))), catalog, List.of()));
        }
        if (request.sql().length() >= OFF_LOOP_CHARS) {
            Catalog catalog = catalogs.of(database);
            return new EstimatedLater(CompletableFuture.completedFuture(catalog), ready -> admit(request, ready, List.of()));
        }
        return admit(request, catalogs.of(database), ladder);
    }

    @Override
    public boolean degrades(SessionInfo session) {
        return degrader.appliesTo(session);
    }

    /** The catalog instance estimates of the database use now: a read that finds something new replaces it. */
    @Override
    public Object catalogVersion(String database) {
        return catalogs.of(database);
    }

    private Admission admit(StatementRequest request, Catalog catalog, List<Degradation> ladder) {
        CompileEstimate estimate = estimator.get().estimate(request.sql(), request.settings(), request.prepared(),
                catalog);
        if (estimate.bypass()) {
            records.passed(request, estimate, StatementRecord.Outcome.BYPASSED);
            // What an EXECUTE runs depends on what the session prepared since: never remembered as a bypass.
            return Words.containsIgnoreCase(request.sql(), "execute") ? Admission.IMMEDIATE : Admission.BYPASS;
        }
        estimates.accept(estimate);
        Optional<Degrader.Choice> degraded = degrader.choose(request, catalog, estimate, ladder);
        if (degraded.isPresent()) {
            Degrader.Choice choice = degraded.get();
            return new DegradedAdmission(admitEstimated(request, choice.estimate(), Optional.of(choice.degraded())),
                    choice.degraded());
        }
        Optional<Duration> after = degrader.after(request, estimate, ladder);
        if (after.isEmpty()) {
            return admitEstimated(request, estimate, Optional.empty());
        }
        Ticket ticket = acquire(request, estimate, String.format(Locale.ROOT, "after %.1f s",
                after.get().toNanos() / 1e9), after.get());
        if (!ticket.gated() || ticket.admitted().isDone()) {
            return watched(request, estimate, ticket);
        }
        Admission plain = new GatewayAdmission(ticket, estimate, request, runningHold, this::refused, waits);
        return records.watch(new DegradeOnWait(plain, after.get(), runningHold.timer(),
                predicted -> ticket.position().flatMap(position -> degrader.withRoom(request, catalog, estimate,
                        ladder, bytes -> TierRoom.hasRoom(gateways, bytes, Optional.of(position)), position.waited(),
                        Optional.ofNullable(position.forBudget() ? null : position.tier()), predicted)),
                choice -> admitEstimated(request, choice.estimate(), Optional.of(choice.degraded())),
                forecaster(ticket)), ticket, request, estimate);
    }

    /**
     * The wait predicted for {@code ticket} where it waits now, its tier's permits being the limit configured for
     * it (in a fleet, the fleet's). A ticket no longer waiting counts as placed: nothing is left to predict.
     */
    private DegradeOnWait.Forecaster forecaster(Ticket ticket) {
        return new DegradeOnWait.Forecaster() {
            @Override
            public boolean placed() {
                return ticket.position().isPresent() || ticket.admitted().isDone();
            }

            @Override
            public Optional<PredictedWait> predict() {
                return ticket.position().flatMap(waiting -> waits.predict(waiting,
                        waiting.tier() == null ? 0 : gateways.settings().tier(waiting.tier()).limit()));
            }
        };
    }

    /** The predictor of this server's waits, and the history of its holds. */
    public WaitPredictor waits() {
        return waits;
    }

    /** @param degraded the tighter settings the estimate is under, when it is not the session's: counted by its tier */
    private Admission admitEstimated(StatementRequest request, CompileEstimate estimate, Optional<Degraded> degraded) {
        Ticket ticket = acquire(request, estimate, degraded.map(d -> "degraded: " + d.degradation().describe())
                .orElse(null), null);
        degraded.ifPresent(d -> degradeCounts.degraded(ticket.highestTier(), d.reason()));
        return watched(request, estimate, ticket);
    }

    /**
     * @param degrade what SHOW QUEUE says of degrading the statement while it waits; null: nothing
     * @param after how long it waits before it degrades; null when it does not degrade for waiting
     */
    private Ticket acquire(StatementRequest request, CompileEstimate estimate, String degrade, Duration after) {
        QueuedStatement queued = new QueuedStatement(request.session(), estimate.fingerprint(),
                estimate.searchSeconds(), degrade, after);
        // A search predicted to be long takes its tiers whatever its memory: the tier limits then bound how many
        // such searches burn the server's CPUs at once (MySQL's with pruning off takes seconds in a few MB).
        Optional<Tier> floor = searchTiers.get().floor(estimate.searchSeconds());
        return floor.isPresent()
                ? gateways.acquire(estimate.estimatedBytes(), floor.get(), request.serverConnection(), queued)
                : gateways.acquire(estimate.estimatedBytes(), request.serverConnection(), queued);
    }

    private Admission watched(StatementRequest request, CompileEstimate estimate, Ticket ticket) {
        if (!ticket.gated()) {
            records.passed(request, estimate, StatementRecord.Outcome.BELOW_THRESHOLD);
            return Admission.IMMEDIATE;
        }
        return records.watch(new GatewayAdmission(ticket, estimate, request, runningHold, this::refused, waits),
                ticket, request, estimate);
    }

    @Override
    public void serverConnectionClosed(long serverConnection) {
        gateways.connectionClosed(serverConnection);
        closedConnections.accept(serverConnection);
    }

    @Override
    public long retainedBytes(long serverConnection) {
        return gateways.retainedBy(serverConnection);
    }

    private AdmissionRejectedException refused(GatewayRejectedException rejection, CompileEstimate estimate,
            StatementRequest request) {
        SessionInfo session = request.session();
        log.warn("refused statement: reason={} tier={} budget={} waited_s={} estimate_bytes={} client={} user={} "
                        + "database={} application={} fingerprint=\"{}\"",
                rejection.reason(), rejection.tier(), rejection.budget(),
                String.format(Locale.ROOT, "%.3f", rejection.waited().toNanos() / 1e9),
                rejection.estimateBytes(), session.clientAddress(), session.user(), session.database(),
                session.applicationName(), QueuedStatement.shorten(estimate.fingerprint(), 200));
        String message = "statement refused by the " + rejection.getMessage();
        String search = searchTiers.get().floor(estimate.searchSeconds()).isPresent() ? String.format(Locale.ROOT,
                "; its join search predicted to take %.3g s of the server's CPU", estimate.searchSeconds()) : "";
        String detail = "Estimated planner memory " + Sizes.bytes(estimate.estimatedBytes()) + " ("
                + estimate.relations() + " relations, " + estimate.memoPairs() + " join pairs to consider" + search
                + "); compile-memory target " + Sizes.bytes(gateways.target()) + ".";
        return new AdmissionRejectedException(message, detail, AdmissionHints.refused(rejection));
    }
}
