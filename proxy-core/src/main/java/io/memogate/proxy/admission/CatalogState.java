package io.memogate.proxy.admission;

import java.time.Duration;

/**
 * What SHOW CATALOGS says of one database's catalog, whatever the server's kind.
 *
 * @param state {@code read}, {@code failed} (estimated from SQL until a read works) or {@code reading}
 *     (the first read is under way)
 * @param tables tables with an index on a column, as last read
 * @param views views (and materialized views) whose queries are expanded, as last read
 * @param functions SQL functions that are inlined, as last read
 * @param routines functions and procedures whose queries are followed, as last read
 * @param triggers triggers whose functions' queries are followed, as last read
 * @param age since the read shown (zero while reading)
 */
public record CatalogState(String database, String state, int tables, int views, int functions, int routines,
                           int triggers, Duration age) {
}
