package io.memogate.proxy.postgres.catalog;

import com.github.benmanes.caffeine.cache.AsyncCacheLoader;
import com.github.benmanes.caffeine.cache.AsyncLoadingCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.RemovalCause;
import com.github.benmanes.caffeine.cache.Ticker;
import io.memogate.broker.probe.postgres.JdbcFailures;
import io.memogate.estimator.Catalog;
import io.memogate.estimator.planner.IndexedColumns;
import io.memogate.proxy.admission.CatalogState;
import io.memogate.proxy.admission.NoSuchDatabaseException;
import io.memogate.proxy.admission.ServerCatalogs;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each served database's {@link Catalog} ({@link ServerCatalog}: indexes, views, inlinable SQL functions),
 * read with the broker's monitoring role on a thread of its own and read again every {@link #REFRESH}, and
 * in the same read the planner settings its sessions start with per role ({@link RoleSettings}: ALTER ROLE /
 * ALTER DATABASE ... SET). The statements that arrive while a database's first read is under way wait for
 * it ({@link #firstRead}; the admission bounds the wait); after that no statement waits: while reads fail,
 * statements are estimated from their SQL alone ({@link Catalog#NONE}) and the server's settings
 * ({@link RoleSettings#NONE}), and a refresh serves the read before until it is in. A failed first read is
 * tried again after {@link #RETRY} (the server may have started after the proxy); a failed refresh keeps the
 * catalog read before. A failure is logged once per database, and its end once.
 *
 * <p>A database that does not exist (the server answers 3D000, or no backend serves it) is no failure to
 * retry: a typo in EXPLAIN ADMISSION DATABASE would otherwise stay in SHOW CATALOGS as {@code failed} and
 * warn in the log about retries that cannot help. Nothing is kept of it (the next lookup reads again, so a
 * database created since is found), and {@link #whenRead} fails with {@link NoSuchDatabaseException}.
 */
public final class IndexCatalogs implements ServerCatalogs {

    /** How long a read is used before it is read again (new indexes and views count from then on). */
    public static final Duration REFRESH = Duration.ofMinutes(5);
    /** How long a database whose catalog could not be read is estimated from SQL before the next try. */
    public static final Duration RETRY = Duration.ofSeconds(30);
    /** pgjdbc's connect and socket timeouts for a read, in seconds: a hung server costs a thread, not a statement. */
    private static final String TIMEOUT_SECONDS = "10";
    /** A good read is kept until refreshed or evicted. */
    private static final Duration KEPT = Duration.ofDays(3650);
    /** PostgreSQL's invalid_catalog_name: "database ... does not exist". */
    private static final String INVALID_CATALOG_NAME = "3D000";
    private static final Logger LOG = LoggerFactory.getLogger(IndexCatalogs.class);

    /** Without a monitoring role: every statement is estimated from its SQL alone. */
    public static final IndexCatalogs NONE = new IndexCatalogs();

    /** Reads one database's catalog. */
    @FunctionalInterface
    interface Reader {
        DatabaseCatalog read(String database) throws SQLException;
    }

    /** What one read of a database gives. */
    record DatabaseCatalog(Catalog catalog, RoleSettings roles) {

        /** Indexes, and no views, role or database settings. */
        static DatabaseCatalog of(IndexedColumns indexes) {
            return new DatabaseCatalog(Catalog.of(indexes), RoleSettings.NONE);
        }
    }

    private enum Outcome { READ, FAILED, NO_SUCH_DATABASE }

    /**
     * One read's outcome, and when it was made (ticker nanos): a failed one is kept only until {@link #RETRY},
     * one of a database that does not exist not at all.
     *
     * @param why the failure, in words; null after a good read
     */
    private record Read(Catalog catalog, RoleSettings roles, Outcome outcome, String why, long nanos) {

        boolean failed() {
            return outcome == Outcome.FAILED;
        }

        Duration kept() {
            return switch (outcome) {
                case READ -> KEPT;
                case FAILED -> RETRY;
                case NO_SUCH_DATABASE -> Duration.ZERO;
            };
        }
    }

    private final Reader reader;
    /** Where reads run. */
    private final Executor reads;
    private final Ticker ticker;
    private final ExecutorService ownThread;
    private final AsyncLoadingCache<String, Read> cache;
    private final Set<String> failing = ConcurrentHashMap.newKeySet();
    /** Databases whose first read has ended, well or not. */
    private final Set<String> attempted = ConcurrentHashMap.newKeySet();
    /** When a statement first waited for a database's first read (ticker nanos). */
    private final Map<String, Long> firstReadStarts = new ConcurrentHashMap<>();
    /** What {@link #of} gave each database last, until its refresh is due. */
    private final RecentReads recent = new RecentReads();

    private IndexCatalogs() {
        this.reader = null;
        this.reads = null;
        this.ticker = null;
        this.ownThread = null;
        this.cache = null;
    }

    /**
     * @param urls the JDBC URL of the server that serves a database, empty when none does
     * @param user the monitoring role
     * @param password its password, or null
     */
    public IndexCatalogs(Function<String, Optional<String>> urls, String user, String password) {
        this(jdbcReader(urls, user, password),
                Executors.newSingleThreadExecutor(Thread.ofPlatform().name("memogate-catalog").daemon().factory()),
                Ticker.systemTicker());
    }

    /** @param executor where reads run; owned (shut down on close) when it is an {@link ExecutorService} */
    IndexCatalogs(Reader reader, Executor executor, Ticker ticker) {
        this.reader = reader;
        this.reads = executor;
        this.ticker = ticker;
        this.ownThread = executor instanceof ExecutorService service ? service : null;
        // The cache's own bookkeeping (draining its read buffers, expiring) runs on the thread that looks a
        // database up: given the reading thread, it woke that thread every few dozen statements, a futex call
        // and a context switch each time on the event loops' cores. The reads themselves run on `executor`.
        this.cache = Caffeine.newBuilder().executor(Runnable::run).ticker(ticker).maximumSize(10_000)
                .refreshAfterWrite(REFRESH)
                .expireAfter(Expiry.<String, Read>writing((database, read) -> read.kept()))
                .removalListener((String database, Read read, RemovalCause cause) -> recent.changed(database))
                .buildAsync(new AsyncCacheLoader<>() {
                    @Override
                    public CompletableFuture<Read> asyncLoad(String database, Executor caller) {
                        // Marked once the future the cache holds is done, so firstRead never misses the end.
                        return CompletableFuture.supplyAsync(() -> read(database), executor)
                                .whenComplete((read, failure) -> attempted.add(database));
                    }

                    @Override
                    public CompletableFuture<Read> asyncReload(String database, Read before, Executor caller) {
                        return CompletableFuture.supplyAsync(() -> {
                            Read now = read(database);
                            // A dropped database (NO_SUCH_DATABASE) is taken: it leaves the cache.
                            return now.failed() && before.outcome() == Outcome.READ ? before : now;
                        }, executor);
                    }
                });
    }

    @Override
    public boolean reads() {
        return cache != null;
    }

    /** The catalog of {@code database} as last read; {@link Catalog#NONE} until a read has succeeded. */
    @Override
    public Catalog of(String database) {
        if (cache == null || database == null) {
            return Catalog.NONE;
        }
        long now = ticker.read();
        Catalog kept = recent.of(database, now);
        if (kept != null) {
            return kept;
        }
        long changes = recent.changes();
        CompletableFuture<Read> read = cache.get(database);
        if (!read.isDone() || read.isCompletedExceptionally()) {
            return Catalog.NONE;
        }
        Read done = read.join();
        if (done.outcome() == Outcome.READ) {
            recent.keep(database, done.catalog(), changes, done.nanos() + REFRESH.toNanos());
        }
        return done.catalog();
    }

    /**
     * The first read of {@code database}'s catalog while it is under way (it starts now if none has): what a
     * statement arriving before any read of its database has ended waits for, so that the first statements
     * after the proxy starts are estimated with the views and indexes as later ones are. It completes with
     * the catalog, or with {@link Catalog#NONE} when the read fails or {@code wait} after the read began,
     * whichever comes first: one deadline for the database, not one for each statement. Empty once a read of
     * it has ended, good or failed (retries of a failing read hold up no statement), once that deadline has
     * passed, and without a monitor.
     */
    @Override
    public Optional<CompletableFuture<Catalog>> firstRead(String database, Duration wait) {
        if (cache == null || database == null || attempted.contains(database)) {
            return Optional.empty();
        }
        CompletableFuture<Read> read = cache.get(database);
        if (read.isDone()) {
            return Optional.empty();
        }
        long started = firstReadStarts.computeIfAbsent(database, name -> ticker.read());
        long left = started + wait.toNanos() - ticker.read();
        return left <= 0 ? Optional.empty() : Optional.of(read.thenApply(Read::catalog)
                .completeOnTimeout(Catalog.NONE, left, TimeUnit.NANOSECONDS));
    }

    /**
     * The ALTER ROLE / ALTER DATABASE planner settings of {@code database}'s sessions as last read;
     * {@link RoleSettings#NONE} until a read has succeeded. Never waits, as {@link #of}.
     */
    @Override
    public RoleSettings loginSettingsOf(String database) {
        if (cache == null || database == null) {
            return RoleSettings.NONE;
        }
        CompletableFuture<Read> read = cache.get(database);
        return read.isDone() && !read.isCompletedExceptionally() ? read.join().roles() : RoleSettings.NONE;
    }

    /**
     * The catalog of {@code database} once its read is in: at once when it is, else when the read under way
     * (or started now) ends; {@link Catalog#NONE} when it fails or without a monitoring role, and
     * {@link NoSuchDatabaseException} when the database does not exist. For what may wait (the console's
     * EXPLAIN ADMISSION), never for a statement.
     */
    @Override
    public CompletableFuture<Catalog> whenRead(String database) {
        if (cache == null || database == null) {
            return CompletableFuture.completedFuture(Catalog.NONE);
        }
        return cache.get(database).handle((read, failure) -> {
            if (failure != null) {
                return Catalog.NONE;
            }
            if (read.outcome() == Outcome.NO_SUCH_DATABASE) {
                throw new NoSuchDatabaseException(database, read.why());
            }
            return read.catalog();
        });
    }

    /**
     * Reads {@code database}'s catalog again now, not at its next refresh (a view was just created): the read
     * before stays in use until this one is in. Completes when it is, failing with
     * {@link NoSuchDatabaseException} when the database does not exist. A read that fails completes normally
     * and, as a failed refresh does, keeps the good read before (SHOW CATALOGS then shows its age).
     */
    @Override
    public CompletableFuture<Void> refresh(String database) {
        if (cache == null) {
            return CompletableFuture.completedFuture(null);
        }
        // Read and put here rather than through the cache's refresh, whose future completes before the cache
        // holds the new read: SHOW CATALOGS right after REFRESH CATALOGS would show the old one.
        return CompletableFuture.supplyAsync(() -> read(database), reads).thenAccept(read -> {
            switch (read.outcome()) {
                case NO_SUCH_DATABASE -> {
                    cache.synchronous().invalidate(database);
                    throw new NoSuchDatabaseException(database, read.why());
                }
                case FAILED -> {
                    if (lastGood(database) == null) {
                        cache.put(database, CompletableFuture.completedFuture(read));
                    }
                }
                case READ -> cache.put(database, CompletableFuture.completedFuture(read));
            }
        });
    }

    /** {@link #refresh} of every database whose catalog was asked for. */
    @Override
    public CompletableFuture<Void> refreshAll() {
        if (cache == null) {
            return CompletableFuture.completedFuture(null);
        }
        return CompletableFuture.allOf(cache.asMap().keySet().stream()
                .map(database -> refresh(database).exceptionally(dropped -> null)) // a dropped database leaves
                .toArray(CompletableFuture[]::new));
    }

    /** Every database whose catalog was asked for, by name. */
    @Override
    public List<CatalogState> states() {
        if (cache == null) {
            return List.of();
        }
        long now = ticker.read();
        List<CatalogState> states = new ArrayList<>();
        cache.asMap().forEach((database, future) -> {
            if (!future.isDone()) {
                states.add(new CatalogState(database, "reading", 0, 0, 0, 0, 0, Duration.ZERO));
            } else if (!future.isCompletedExceptionally()
                    && future.join().outcome() != Outcome.NO_SUCH_DATABASE) { // not kept, but maybe not yet evicted
                Read read = future.join();
                states.add(new CatalogState(database, read.failed() ? "failed" : "read",
                        read.catalog().indexes().tables(), read.catalog().views().size(),
                        read.catalog().functions().size(), read.catalog().routines().size(),
                        read.catalog().triggers().size(),
                        Duration.ofNanos(Math.max(0, now - read.nanos()))));
            }
        });
        states.sort(Comparator.comparing(CatalogState::database));
        return states;
    }

    private Read read(String database) {
        try {
            DatabaseCatalog read = reader.read(database);
            Catalog catalog = read.catalog();
            if (failing.remove(database)) {
                LOG.info("index catalog of database {} read: {} tables with indexes, {} views, {} inlinable"
                        + " functions, {} routines, {} triggers", database, catalog.indexes().tables(),
                        catalog.views().size(), catalog.functions().size(), catalog.routines().size(),
                        catalog.triggers().size());
            }
            // Nothing changed since the last good read: keep its instances, and the estimates cached under them.
            Read before = lastGood(database);
            if (before != null && before.catalog().sameContent(catalog)) {
                catalog = before.catalog();
            }
            RoleSettings roles = before != null && before.roles().equals(read.roles()) ? before.roles() : read.roles();
            return new Read(catalog, roles, Outcome.READ, null, ticker.read());
        } catch (SQLException e) {
            if (INVALID_CATALOG_NAME.equals(e.getSQLState())) {
                failing.remove(database);
                LOG.debug("index catalog of database {} not read: {}", database, e.getMessage());
                return new Read(Catalog.NONE, RoleSettings.NONE, Outcome.NO_SUCH_DATABASE, e.getMessage(),
                        ticker.read());
            }
            if (failing.add(database)) {
                LOG.warn("cannot read the index catalog of database {} ({}): its statements are estimated from their"
                        + " SQL alone until a read works; trying again every {} s", database, JdbcFailures.message(e),
                        RETRY.toSeconds());
            }
            return new Read(Catalog.NONE, RoleSettings.NONE, Outcome.FAILED, e.getMessage(), ticker.read());
        }
    }

    /**
     * The good read {@code database} has in the cache now; null when there is none. Looked up quietly: an
     * ordinary lookup of a stale entry would start a refresh, a second read of the database.
     */
    private Read lastGood(String database) {
        Read read = cache.synchronous().policy().getIfPresentQuietly(database);
        return read != null && read.outcome() == Outcome.READ ? read : null;
    }

    private static Reader jdbcReader(Function<String, Optional<String>> urls, String user, String password) {
        Properties login = new Properties();
        login.setProperty("user", user);
        if (password != null) {
            login.setProperty("password", password);
        }
        login.setProperty("ApplicationName", "memogate catalog");
        login.setProperty("connectTimeout", TIMEOUT_SECONDS);
        login.setProperty("socketTimeout", TIMEOUT_SECONDS);
        return database -> {
            Optional<String> url = urls.apply(database);
            if (url.isEmpty()) { // its sessions are refused with 3D000: so is its catalog
                throw new SQLException("Memogate routes no backend for database \"" + database
                        + "\" and no backend is marked default", INVALID_CATALOG_NAME);
            }
            try (Connection connection = DriverManager.getConnection(url.get(), login)) {
                return new DatabaseCatalog(ServerCatalog.read(connection), RoleSettings.read(connection));
            } catch (SQLException e) {
                if (INVALID_CATALOG_NAME.equals(e.getSQLState())) {
                    throw new SQLException("Its index catalog was read on the server that serves it, which "
                            + "answered: " + e.getMessage(), INVALID_CATALOG_NAME, e);
                }
                throw e;
            }
        };
    }

    @Override
    public void close() {
        if (ownThread != null) {
            ownThread.shutdownNow();
        }
    }
}
