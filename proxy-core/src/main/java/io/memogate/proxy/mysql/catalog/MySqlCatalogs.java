package io.memogate.proxy.mysql.catalog;

import com.github.benmanes.caffeine.cache.AsyncCacheLoader;
import com.github.benmanes.caffeine.cache.AsyncLoadingCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Ticker;
import io.memogate.estimator.Catalog;
import io.memogate.estimator.planner.TableStatistics;
import io.memogate.proxy.admission.CatalogState;
import io.memogate.proxy.admission.LoginSettings;
import io.memogate.proxy.admission.NoSuchDatabaseException;
import io.memogate.proxy.admission.ServerCatalogs;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each schema's table statistics on one MySQL or MariaDB server ({@link StatisticsCatalog}), read with the
 * broker's monitoring user on a thread of its own, read again every {@link #REFRESH} (row counts drift, ANALYZE
 * TABLE moves cardinalities) and on REFRESH CATALOGS. A schema is read when a session that names it first
 * sends a statement; statements arriving during that first read wait for it within the admission's bound,
 * later ones never wait: a refresh serves the read before until it is in. A failed read leaves the schema's
 * statements estimated from their SQL alone (the join graph's count, an upper bound without pruning) and is
 * tried again after {@link #RETRY}; a failed refresh keeps the read before. A schema that does not exist is not
 * kept. Sessions' login settings are the server's own here: MySQL has no per-role optimizer settings to read.
 */
public final class MySqlCatalogs implements ServerCatalogs {

    /** How long a read is used before it is read again. */
    public static final Duration REFRESH = Duration.ofMinutes(5);
    /** How long a schema whose statistics could not be read is estimated from SQL before the next try. */
    public static final Duration RETRY = Duration.ofSeconds(30);
    /** The driver's connect and socket timeouts for a read, in milliseconds. */
    private static final String TIMEOUT_MILLIS = "10000";
    private static final Duration KEPT = Duration.ofDays(3650);
    private static final Logger LOG = LoggerFactory.getLogger(MySqlCatalogs.class);

    /** Reads one schema's statistics. */
    @FunctionalInterface
    public interface Reader {
        TableStatistics read(String schema) throws SQLException;
    }

    private enum Outcome { READ, FAILED, NO_SUCH_DATABASE }

    /** One read and when it was made (ticker nanos); {@code why} is the failure in words, null after a good one. */
    private record Read(Catalog catalog, Outcome outcome, String why, long nanos) {
        Duration kept() {
            return switch (outcome) {
                case READ -> KEPT;
                case FAILED -> RETRY;
                case NO_SUCH_DATABASE -> Duration.ZERO;
            };
        }
    }

    private final Reader reader;
    private final Executor reads;
    private final Ticker ticker;
    private final ExecutorService ownThread;
    private final AsyncLoadingCache<String, Read> cache;
    private final Set<String> failing = ConcurrentHashMap.newKeySet();

    /**
     * @param url the server's JDBC URL without a database ({@code jdbc:mariadb://host:port/?sslMode=...})
     * @param user the monitoring user
     * @param password its password, or null
     */
    public MySqlCatalogs(String url, String user, String password) {
        this(jdbcReader(url, user, password),
                Executors.newSingleThreadExecutor(Thread.ofPlatform().name("memogate-mysql-catalog").daemon().factory()),
                Ticker.systemTicker());
    }

    /** @param executor where reads run; owned (shut down on close) when it is an {@link ExecutorService} */
    public MySqlCatalogs(Reader reader, Executor executor, Ticker ticker) {
        this.reader = reader;
        this.reads = executor;
        this.ticker = ticker;
        this.ownThread = executor instanceof ExecutorService service ? service : null;
        // Bookkeeping on the looking-up thread, reads on the executor (as the PostgreSQL catalogs do, for the
        // same reason: waking the reading thread every few statements costs the event loops a context switch).
        this.cache = Caffeine.newBuilder().executor(Runnable::run).ticker(ticker).maximumSize(10_000)
                .refreshAfterWrite(REFRESH)
                .expireAfter(Expiry.<String, Read>writing((schema, read) -> read.kept()))
                .buildAsync(new AsyncCacheLoader<>() {
                    @Override
                    public CompletableFuture<Read> asyncLoad(String schema, Executor caller) {
                        return CompletableFuture.supplyAsync(() -> read(schema), executor);
                    }

                    @Override
                    public CompletableFuture<Read> asyncReload(String schema, Read before, Executor caller) {
                        return CompletableFuture.supplyAsync(() -> {
                            Read now = read(schema);
                            return now.outcome() == Outcome.FAILED && before.outcome() == Outcome.READ ? before : now;
                        }, executor);
                    }
                });
    }

    private static Reader jdbcReader(String url, String user, String password) {
        Properties login = new Properties();
        login.setProperty("user", user);
        if (password != null) {
            login.setProperty("password", password);
        }
        login.setProperty("connectTimeout", TIMEOUT_MILLIS);
        login.setProperty("socketTimeout", TIMEOUT_MILLIS);
        return schema -> {
            try (Connection connection = DriverManager.getConnection(url, login)) {
                return StatisticsCatalog.read(connection, schema);
            }
        };
    }

    @Override
    public boolean reads() {
        return true;
    }

    @Override
    public Catalog of(String database) {
        if (database == null || database.isEmpty()) {
            return Catalog.NONE;
        }
        CompletableFuture<Read> read = cache.get(database);
        return read.isDone() && !read.isCompletedExceptionally() ? read.join().catalog() : Catalog.NONE;
    }

    /** The first read while it is under way, {@link Catalog#NONE} after {@code wait}; empty once one has ended. */
    @Override
    public Optional<CompletableFuture<Catalog>> firstRead(String database, Duration wait) {
        if (database == null || database.isEmpty()) {
            return Optional.empty();
        }
        CompletableFuture<Read> read = cache.get(database);
        return read.isDone() ? Optional.empty() : Optional.of(read.thenApply(Read::catalog)
                .completeOnTimeout(Catalog.NONE, wait.toNanos(), TimeUnit.NANOSECONDS));
    }

    @Override
    public LoginSettings loginSettingsOf(String database) {
        return LoginSettings.NONE;
    }

    @Override
    public CompletableFuture<Catalog> whenRead(String database) {
        if (database == null || database.isEmpty()) {
            return CompletableFuture.completedFuture(Catalog.NONE);
        }
        return cache.get(database).thenApply(read -> {
            if (read.outcome() == Outcome.NO_SUCH_DATABASE) {
                throw new NoSuchDatabaseException(database, read.why());
            }
            return read.catalog();
        });
    }

    /** Reads {@code database} again now; the read before stays in use until this one is in, and after a failure. */
    @Override
    public CompletableFuture<Void> refresh(String database) {
        return CompletableFuture.supplyAsync(() -> read(database), reads).thenAccept(read -> {
            switch (read.outcome()) {
                case NO_SUCH_DATABASE -> {
                    cache.synchronous().invalidate(database);
                    throw new NoSuchDatabaseException(database, read.why());
                }
                case FAILED -> {
                    CompletableFuture<Read> before = cache.getIfPresent(database);
                    if (before == null || !before.isDone() || before.join().outcome() != Outcome.READ) {
                        cache.put(database, CompletableFuture.completedFuture(read));
                    }
                }
                case READ -> cache.put(database, CompletableFuture.completedFuture(read));
            }
        });
    }

    @Override
    public CompletableFuture<Void> refreshAll() {
        return CompletableFuture.allOf(cache.asMap().keySet().stream()
                .map(database -> refresh(database).exceptionally(dropped -> null))
                .toArray(CompletableFuture[]::new));
    }

    /** SHOW CATALOGS' rows: per schema, the tables whose statistics were read. */
    @Override
    public List<CatalogState> states() {
        long now = ticker.read();
        List<CatalogState> states = new ArrayList<>();
        cache.asMap().forEach((database, future) -> {
            if (!future.isDone()) {
                states.add(new CatalogState(database, "reading", 0, 0, 0, 0, 0, Duration.ZERO));
            } else if (!future.isCompletedExceptionally() && future.join().outcome() != Outcome.NO_SUCH_DATABASE) {
                Read read = future.join();
                states.add(new CatalogState(database, read.outcome() == Outcome.FAILED ? "failed" : "read",
                        read.catalog().statistics().tables(), 0, 0, 0, 0,
                        Duration.ofNanos(Math.max(0, now - read.nanos()))));
            }
        });
        states.sort(Comparator.comparing(CatalogState::database));
        return states;
    }

    private Read read(String schema) {
        try {
            TableStatistics statistics = reader.read(schema);
            if (failing.remove(schema)) {
                LOG.info("table statistics of schema {} read: {} tables", schema, statistics.tables());
            }
            CompletableFuture<Read> before = cache.getIfPresent(schema);
            Catalog catalog = Catalog.of(statistics);
            if (before != null && before.isDone() && !before.isCompletedExceptionally()
                    && before.join().catalog().sameContent(catalog)) {
                catalog = before.join().catalog(); // nothing new: keep the instance the estimates are cached under
            }
            return new Read(catalog, Outcome.READ, null, ticker.read());
        } catch (SQLException e) {
            if (e.getErrorCode() == StatisticsCatalog.UNKNOWN_DATABASE) {
                failing.remove(schema);
                return new Read(Catalog.NONE, Outcome.NO_SUCH_DATABASE, e.getMessage(), ticker.read());
            }
            if (failing.add(schema)) {
                LOG.warn("cannot read the table statistics of schema {} ({}): its statements are estimated from their"
                        + " SQL alone until a read works; trying again every {} s", schema, e.getMessage(),
                        RETRY.toSeconds());
            }
            return new Read(Catalog.NONE, Outcome.FAILED, e.getMessage(), ticker.read());
        }
    }

    @Override
    public void close() {
        if (ownThread != null) {
            ownThread.shutdownNow();
        }
    }
}
