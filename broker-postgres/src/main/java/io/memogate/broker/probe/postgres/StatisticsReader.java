package io.memogate.broker.probe.postgres;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

import io.memogate.broker.probe.IoCounters;
import io.memogate.broker.probe.ProbeException;

/**
 * Reads the cumulative statistics the pressure signals come from: pg_stat_database summed over all
 * databases (the row with datid 0 holds shared catalogs) and, on PostgreSQL 16+, pg_stat_io for client
 * backends. The monitoring connection runs in autocommit, so each query sees current values rather than
 * a snapshot cached for the transaction (stats_fetch_consistency).
 */
final class StatisticsReader {

    /** The release that added pg_stat_io. */
    static final int PG_STAT_IO_VERSION = 160000;

    private static final String DATABASE_QUERY = "SELECT sum(temp_bytes)::bigint, sum(blks_read)::bigint,"
            + " sum(blks_hit)::bigint FROM pg_catalog.pg_stat_database";
    /** Null cells mark operations that do not apply to an object and context; sum() skips them. */
    private static final String IO_QUERY = "SELECT sum(reads)::bigint, sum(writes)::bigint, sum(extends)::bigint"
            + " FROM pg_catalog.pg_stat_io WHERE backend_type = 'client backend'";

    private StatisticsReader() {
    }

    static CumulativeStatistics read(Connection connection, int serverVersionNum) throws SQLException, ProbeException {
        long tempBytes;
        long blocksRead;
        long blocksHit;
        try (Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery(DATABASE_QUERY)) {
            row.next();
            tempBytes = counter(row, 1, "pg_stat_database.temp_bytes");
            blocksRead = counter(row, 2, "pg_stat_database.blks_read");
            blocksHit = counter(row, 3, "pg_stat_database.blks_hit");
        }
        return new CumulativeStatistics(tempBytes, blocksRead, blocksHit,
                serverVersionNum >= PG_STAT_IO_VERSION ? io(connection) : Optional.empty());
    }

    /** Empty when no row carries a count, which the view allows; the broker then has no I/O figures. */
    private static Optional<IoCounters> io(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet row = statement.executeQuery(IO_QUERY)) {
            row.next();
            long reads = row.getLong(1);
            boolean readsNull = row.wasNull();
            long writes = row.getLong(2);
            boolean writesNull = row.wasNull();
            long extensions = row.getLong(3);
            if (readsNull || writesNull || row.wasNull()) {
                return Optional.empty();
            }
            return Optional.of(new IoCounters(reads, writes, extensions));
        }
    }

    private static long counter(ResultSet row, int column, String name) throws SQLException, ProbeException {
        long value = row.getLong(column);
        if (row.wasNull()) {
            throw new ProbeException(name + " is null: the server reported no database statistics");
        }
        return value;
    }
}
