package io.memogate.proxy.postgres.catalog;

import io.memogate.estimator.Catalog;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The catalog each database's statements were given last, kept until the cache of reads would refresh it: every
 * statement asks for its database's catalog twice (the routines its text may call, its estimate), and the cache's
 * own look-up (its read buffers, expiry and refresh checks) was 1-2% of the shipped proxy's event-loop CPU under
 * pgbench -S. A map look-up and a clock read take its place until the refresh is due, when the next statement
 * goes to the cache again and starts it. Any change of the cache's entries drops what is kept.
 */
final class RecentReads {

    /** @param changes {@link #changes} before the cache was asked: kept only while no entry changed since */
    private record Recent(Catalog catalog, long changes, long refreshAtNanos) {
    }

    private final Map<String, Recent> byDatabase = new ConcurrentHashMap<>();
    private final AtomicLong changes = new AtomicLong();

    /** How many times an entry of the cache changed: taken before asking the cache, given to {@link #keep}. */
    long changes() {
        return changes.get();
    }

    /** The catalog kept for {@code database}, or null: none kept, its refresh due at {@code nowNanos}, or changed. */
    Catalog of(String database, long nowNanos) {
        Recent recent = byDatabase.get(database);
        return recent != null && nowNanos - recent.refreshAtNanos < 0 && recent.changes == changes.get()
                ? recent.catalog : null;
    }

    /** The cache gave {@code catalog}, asked after {@code changesBefore} changes; its refresh is due at the time given. */
    void keep(String database, Catalog catalog, long changesBefore, long refreshAtNanos) {
        byDatabase.put(database, new Recent(catalog, changesBefore, refreshAtNanos));
    }

    /** The cache's entry for {@code database} was replaced, refreshed, evicted or removed. */
    void changed(String database) {
        changes.incrementAndGet();
        byDatabase.remove(database);
    }
}
