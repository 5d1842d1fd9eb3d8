package io.memogate.bench.accuracy;

import io.memogate.bench.storm.governor.MemoryGovernor;
import io.memogate.bench.storm.governor.Postmaster;
import io.memogate.bench.storm.governor.ProcFs;
import io.memogate.estimator.Catalog;
import io.memogate.estimator.CompileEstimate;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.PreparedStatementTexts;
import io.memogate.proxy.postgres.calibrate.CalibrationException;
import io.memogate.proxy.postgres.calibrate.PlannerMemory;
import io.memogate.proxy.postgres.calibrate.tpc.TableLifetime;
import io.memogate.proxy.postgres.calibrate.tpc.TpcdsDatabase;
import io.memogate.proxy.postgres.calibrate.tpc.TpchDatabase;
import io.memogate.proxy.postgres.catalog.ServerCatalog;
import io.memogate.proxy.postgres.embedded.DemoSchema;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresOptions;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.function.Consumer;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plans every corpus statement under every profile on a fresh embedded PostgreSQL 18 and estimates it
 * under the same settings. A {@link MemoryGovernor} watches the server as in the storm: a statement whose
 * planning outgrows the emulated host is killed like an OOM kill and recorded as such, and the run goes
 * on once the server has reinitialized. Statements whose estimate is already above a maximum are not
 * planned at all.
 */
final class AccuracyRun {

    private static final Logger LOG = LoggerFactory.getLogger(AccuracyRun.class);
    private static final Duration RECONNECT_WAIT = Duration.ofSeconds(60);

    private final long hostBytes;
    private final long maxEstimateBytes;
    private final Duration statementTimeout;
    private final CompileEstimator estimator;
    private final boolean catalog;
    private final Optional<DegradeCheck> degrade;

    /**
     * @param hostBytes the emulated host: the governor kills planning that outgrows it
     * @param maxEstimateBytes statements estimated above this are not planned at all
     * @param catalog whether the estimates read each database's catalog ({@link ServerCatalog}), as the proxy
     *     does with a broker monitor; without, they read the SQL alone
     */
    AccuracyRun(long hostBytes, long maxEstimateBytes, Duration statementTimeout, CompileEstimator estimator,
                boolean catalog) {
        this(hostBytes, maxEstimateBytes, statementTimeout, estimator, catalog, Optional.empty());
    }

    /** @param degrade what the degrade ladders make of each statement estimated above its target; empty: nothing */
    AccuracyRun(long hostBytes, long maxEstimateBytes, Duration statementTimeout, CompileEstimator estimator,
                boolean catalog, Optional<DegradeCheck> degrade) {
        this.hostBytes = hostBytes;
        this.maxEstimateBytes = maxEstimateBytes;
        this.statementTimeout = statementTimeout;
        this.estimator = estimator;
        this.catalog = catalog;
        this.degrade = degrade;
    }

    /**
     * What a run planned, and on which server.
     *
     * @param degraded under a degrade target, the statements measured above it, degraded by each ladder
     */
    record Result(String serverVersion, List<Planned> planned, List<DegradeCheck.Degraded> degraded) {

        Result(String serverVersion, List<Planned> planned) {
            this(serverVersion, planned, List.of());
        }
    }

    Result run(List<Corpus> corpora, List<Profile> profiles, Consumer<Planned> progress) throws Exception {
        List<Planned> observations = new ArrayList<>();
        List<DegradeCheck.Degraded> degraded = new ArrayList<>();
        String version;
        try (EmbeddedPostgres postgres = EmbeddedPostgres.start(EmbeddedPostgresOptions.builder().build());
             MemoryGovernor governor = governor(postgres)) {
            new DemoSchema(postgres).load();
            try (Connection c = postgres.connect(DemoSchema.DATABASE)) {
                version = new PlannerMemory(c).requireMemoryOption();
            }
            postgres.createDatabase(Corpora.TPCH_DATABASE, EmbeddedPostgres.SUPERUSER);
            postgres.createDatabase(Corpora.TPCDS_DATABASE, EmbeddedPostgres.SUPERUSER);
            postgres.createDatabase(Corpora.SYNTHETIC_DATABASE, EmbeddedPostgres.SUPERUSER);
            postgres.createDatabase(Corpora.SYNTHETIC_INDEXED_DATABASE, EmbeddedPostgres.SUPERUSER);
            postgres.createDatabase(Corpora.RANDOM_DATABASE, EmbeddedPostgres.SUPERUSER);
            // Corpora on one database (the random corpus's seeds) share its tables, loaded once.
            Set<String> loaded = new HashSet<>();
            for (Corpus corpus : corpora) {
                long started = System.nanoTime();
                Catalog read;
                try (Connection c = postgres.connect(corpus.database())) {
                    if (loaded.add(corpus.database())) {
                        loadTables(corpus.database(), c);
                    }
                    setUp(corpus, c);
                    read = catalog ? ServerCatalog.read(c) : Catalog.NONE;
                }
                LOG.info("{}: loaded in {} ms, {} tables with indexes, {} views, {} inlinable functions",
                        corpus.name(), (System.nanoTime() - started) / 1_000_000, read.indexes().tables(),
                        read.views().size(), read.functions().size());
                for (Profile profile : profiles) {
                    for (Planned o : plan(postgres, governor, corpus, profile, read, degraded)) {
                        observations.add(o);
                        progress.accept(o);
                    }
                }
            }
        }
        return new Result(version, observations, degraded);
    }

    private MemoryGovernor governor(EmbeddedPostgres postgres) throws IOException {
        ProcFs proc = new ProcFs();
        long postmaster = Postmaster.pid(postgres.dataDirectory());
        proc.preferForOomKill(postmaster);
        return new MemoryGovernor(proc, postmaster, hostBytes, MemoryGovernor.MAX_INTERVAL, System::nanoTime).start();
    }

    private static void loadTables(String database, Connection connection) throws SQLException {
        switch (database) {
            case Corpora.TPCH_DATABASE -> TpchDatabase.load(connection, TableLifetime.PERMANENT);
            case Corpora.TPCDS_DATABASE -> TpcdsDatabase.load(connection, TableLifetime.PERMANENT);
            case Corpora.SYNTHETIC_DATABASE, Corpora.SYNTHETIC_INDEXED_DATABASE, Corpora.RANDOM_DATABASE ->
                    SyntheticDatabase.load(connection);
            default -> { } // the demo warehouse is loaded with the server
        }
    }

    private static void setUp(Corpus corpus, Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            for (String sql : corpus.setup()) {
                statement.execute(sql);
            }
        }
    }

    /** @param degraded where the statements estimated above the degrade target go, degraded */
    private List<Planned> plan(EmbeddedPostgres postgres, MemoryGovernor governor, Corpus corpus, Profile profile,
                               Catalog catalog, List<DegradeCheck.Degraded> degraded) throws Exception {
        List<Planned> out = new ArrayList<>();
        Connection connection = session(postgres, corpus, profile);
        try {
            for (Corpus.Member member : corpus.statements()) {
                CompileEstimate estimate = estimator.estimate(member.sql(), profile.plannerSettings(),
                        PreparedStatementTexts.NONE, catalog);
                if (estimate.estimatedBytes() > maxEstimateBytes) {
                    out.add(new Planned(corpus.name(), member.id(), profile.name(), estimate, -1,
                            "not planned: estimated above " + maxEstimateBytes / (1 << 20) + " MiB"));
                    continue;
                }
                int killsBefore = governor.kills().size();
                try {
                    long used = new PlannerMemory(connection).measure(member.sql());
                    Planned planned = new Planned(corpus.name(), member.id(), profile.name(), estimate, used, Planned.OK);
                    out.add(planned);
                    if (degrade.isPresent() && estimate.estimatedBytes() > degrade.get().targetBytes()) {
                        // Degraded, it plans in less than it just did: a failure here is the session's, not the
                        // statement's, which stays measured.
                        try {
                            degraded.add(degrade.get().check(connection, planned, member.sql(), profile, catalog));
                        } catch (SQLException e) {
                            LOG.warn("{} {} {}: not degraded: {}", corpus.name(), member.id(), profile.name(),
                                    e.getMessage());
                            connection.close();
                            connection = reconnect(postgres, corpus, profile);
                        }
                    }
                } catch (CalibrationException e) {
                    out.add(new Planned(corpus.name(), member.id(), profile.name(), estimate, -1, e.getMessage()));
                } catch (SQLException e) {
                    if (governor.kills().size() > killsBefore || connection.isClosed() || !connection.isValid(5)) {
                        out.add(new Planned(corpus.name(), member.id(), profile.name(), estimate, -1,
                                "killed: planning outgrew the emulated host of " + hostBytes / (1 << 20) + " MiB"));
                        connection.close();
                        connection = reconnect(postgres, corpus, profile);
                    } else {
                        String message = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
                        out.add(new Planned(corpus.name(), member.id(), profile.name(), estimate, -1,
                                "server error " + e.getSQLState() + ": " + message));
                    }
                }
            }
        } finally {
            connection.close();
        }
        return out;
    }

    private Connection session(EmbeddedPostgres postgres, Corpus corpus, Profile profile) throws SQLException {
        Connection connection = postgres.connect(corpus.database());
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET statement_timeout = " + statementTimeout.toMillis());
            for (Map.Entry<String, String> e : profile.settings().entrySet()) {
                statement.execute("SET " + e.getKey() + " = " + e.getValue());
            }
        }
        return connection;
    }

    /** After a kill the server ends every session and reinitializes; wait until it takes connections again. */
    private Connection reconnect(EmbeddedPostgres postgres, Corpus corpus, Profile profile) throws Exception {
        long deadline = System.nanoTime() + RECONNECT_WAIT.toNanos();
        while (true) {
            try {
                return session(postgres, corpus, profile);
            } catch (SQLException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(500);
            }
        }
    }
}
