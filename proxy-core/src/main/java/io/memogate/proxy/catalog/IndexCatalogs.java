package io.memogate.proxy.catalog;

import com.github.benmanes.caffeine.cache.AsyncLoadingCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.memogate.estimator.planner.IndexedColumns;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each served database's {@link IndexedColumns}, read with the broker's monitoring role ({@link IndexCatalog})
 * on a thread of its own and read again every {@link #REFRESH}. A statement never waits for it: until a
 * database's first read completes, or when it fails, its statements are estimated from their SQL alone
 * ({@link IndexedColumns#NONE}), and a failure is logged once per database.
 */
public final class IndexCatalogs implements AutoCloseable {

    /** How long an index read is used before it is read again (new indexes count from then on). */
    public static final Duration REFRESH = Duration.ofMinutes(5);
    /** pgjdbc's connect and socket timeouts for a read, in seconds: a server that hangs costs a thread, not a statement. */
    private static final String TIMEOUT_SECONDS = "10";
    private static final Logger LOG = LoggerFactory.getLogger(IndexCatalogs.class);

    /** Without a monitoring role: every statement is estimated from its SQL alone. */
    public static final IndexCatalogs NONE = new IndexCatalogs();

    private final Function<String, Optional<String>> urls;
    private final Properties login;
    private final ExecutorService reader;
    private final AsyncLoadingCache<String, IndexedColumns> cache;
    private final Set<String> failedOnce = ConcurrentHashMap.newKeySet();

    private IndexCatalogs() {
        this.urls = null;
        this.login = null;
        this.reader = null;
        this.cache = null;
    }

    /**
     * @param urls the JDBC URL of the server that serves a database, empty when none does
     * @param user the monitoring role
     * @param password its password, or null
     */
    public IndexCatalogs(Function<String, Optional<String>> urls, String user, String password) {
        this.urls = urls;
        this.login = new Properties();
        login.setProperty("user", user);
        if (password != null) {
            login.setProperty("password", password);
        }
        login.setProperty("ApplicationName", "memogate catalog");
        login.setProperty("connectTimeout", TIMEOUT_SECONDS);
        login.setProperty("socketTimeout", TIMEOUT_SECONDS);
        this.reader = Executors.newSingleThreadExecutor(Thread.ofPlatform().name("memogate-catalog").daemon().factory());
        this.cache = Caffeine.newBuilder().executor(reader).maximumSize(10_000).refreshAfterWrite(REFRESH)
                .buildAsync(this::read);
    }

    /** The indexes of {@code database} as last read; {@link IndexedColumns#NONE} until a read has completed. */
    public IndexedColumns of(String database) {
        if (cache == null || database == null) {
            return IndexedColumns.NONE;
        }
        CompletableFuture<IndexedColumns> read = cache.get(database);
        return read.isDone() && !read.isCompletedExceptionally() ? read.join() : IndexedColumns.NONE;
    }

    private IndexedColumns read(String database) {
        Optional<String> url = urls.apply(database);
        if (url.isEmpty()) {
            return IndexedColumns.NONE;
        }
        try (Connection connection = DriverManager.getConnection(url.get(), login)) {
            IndexedColumns indexes = IndexCatalog.read(connection);
            if (failedOnce.remove(database)) {
                LOG.info("index catalog of database {} read again: {} tables with indexes", database, indexes.tables());
            }
            return indexes;
        } catch (SQLException e) {
            if (failedOnce.add(database)) {
                LOG.warn("cannot read the index catalog of database {} as {} ({}): its statements are estimated"
                        + " from their SQL alone until a read works", database, login.getProperty("user"), e.getMessage());
            }
            return IndexedColumns.NONE;
        }
    }

    @Override
    public void close() {
        if (reader != null) {
            reader.shutdownNow();
        }
    }
}
