package io.memogate.proxy.admission;

import io.memogate.estimator.Catalog;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Each database's {@link Catalog} on one server (indexes, views, functions, routines, triggers) and the
 * settings its sessions get at login, as the admission reads them: read by each kind of server's own reader
 * (PostgreSQL: {@code postgres.catalog.IndexCatalogs}), in the background, never making a statement wait
 * beyond its database's first read. Thread-safe.
 */
public interface ServerCatalogs extends AutoCloseable {

    /** No monitoring role: every statement is estimated from its SQL alone. */
    ServerCatalogs NONE = new NoCatalogs();

    /** Whether catalogs are read at all; false for {@link #NONE}. */
    boolean reads();

    /** The catalog of {@code database} as last read; {@link Catalog#NONE} until a read has succeeded. Never waits. */
    Catalog of(String database);

    /**
     * The first read of {@code database}'s catalog while it is under way (started now if none has), which a
     * statement arriving before any read of its database ended waits for: it completes with the catalog, or
     * with {@link Catalog#NONE} when the read fails or {@code wait} after it began. Empty once a read has ended,
     * once that deadline has passed, and without a monitor.
     */
    Optional<CompletableFuture<Catalog>> firstRead(String database, Duration wait);

    /** The settings {@code database}'s sessions get at login, as last read; {@link LoginSettings#NONE} before. */
    LoginSettings loginSettingsOf(String database);

    /**
     * The catalog of {@code database} once its read is in, for what may wait (the console's EXPLAIN ADMISSION),
     * never for a statement; fails with {@link NoSuchDatabaseException} when the database does not exist.
     */
    CompletableFuture<Catalog> whenRead(String database);

    /** Reads {@code database}'s catalog again now; the read before stays in use until this one is in. */
    CompletableFuture<Void> refresh(String database);

    /** {@link #refresh} of every database whose catalog was asked for. */
    CompletableFuture<Void> refreshAll();

    /** Every database whose catalog was asked for, by name. */
    List<CatalogState> states();

    /** What SHOW CATALOGS says of {@code database}; empty when its catalog was never asked for. */
    default Optional<CatalogState> state(String database) {
        return states().stream().filter(state -> state.database().equals(database)).findFirst();
    }

    @Override
    void close();
}
