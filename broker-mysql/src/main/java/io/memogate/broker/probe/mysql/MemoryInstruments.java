package io.memogate.broker.probe.mysql;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What performance_schema's memory instruments count now, server-wide
 * (performance_schema.memory_summary_global_by_event_name, MariaDB 10.5+ and MySQL 5.7+).
 *
 * @param statementArenaBytes memory/sql/THD::main_mem_root: the arenas statements are parsed and optimized in
 *                            (the optimizer's memory, with the parse trees of statements still running); empty
 *                            when that instrument is missing or off
 * @param bufferPoolBytes     memory/innodb/buf_buf_pool, the data cache; empty when missing or off
 * @param totalBytes          every instrument's bytes together: what sys.x$memory_global_total shows (the
 *                            enabled instruments' count)
 */
record MemoryInstruments(OptionalLong statementArenaBytes, OptionalLong bufferPoolBytes, long totalBytes) {

    static final String STATEMENT_ARENA = "memory/sql/THD::main_mem_root";
    static final String BUFFER_POOL = "memory/innodb/buf_buf_pool";
    /** ER_TABLEACCESS_DENIED_ERROR: no SELECT on performance_schema. */
    static final int TABLE_ACCESS_DENIED = 1142;

    /**
     * Instruments that are off count nothing (MariaDB starts with every memory instrument off): only enabled
     * ones are read, so that "not measured" never reads as zero bytes. MariaDB spells the names in lower case,
     * MySQL as above; the server compares them without case.
     */
    private static final String QUERY = "SELECT s.EVENT_NAME, s.CURRENT_NUMBER_OF_BYTES_USED"
            + " FROM performance_schema.memory_summary_global_by_event_name s"
            + " JOIN performance_schema.setup_instruments i ON i.NAME = s.EVENT_NAME"
            + " WHERE i.ENABLED = 'YES' AND s.EVENT_NAME IN ('" + STATEMENT_ARENA + "', '" + BUFFER_POOL + "')"
            + " UNION ALL SELECT '', SUM(CURRENT_NUMBER_OF_BYTES_USED)"
            + " FROM performance_schema.memory_summary_global_by_event_name";

    /**
     * The instruments' counts; empty when the monitoring user may not read performance_schema (its SELECT
     * refused), which the caller reports as a fallback rather than a failed poll.
     */
    static Optional<MemoryInstruments> read(Connection connection) throws SQLException {
        OptionalLong arena = OptionalLong.empty();
        OptionalLong bufferPool = OptionalLong.empty();
        long total = 0;
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(QUERY)) {
            while (rows.next()) {
                // A count of bytes used may dip below zero when memory allocated before the instrument was
                // enabled is freed under it: nothing is held then.
                long bytes = Math.max(0, rows.getLong(2));
                String name = rows.getString(1);
                if (name.equalsIgnoreCase(STATEMENT_ARENA)) {
                    arena = OptionalLong.of(bytes);
                } else if (name.equalsIgnoreCase(BUFFER_POOL)) {
                    bufferPool = OptionalLong.of(bytes);
                } else {
                    total = bytes;
                }
            }
        } catch (SQLException e) {
            if (e.getErrorCode() == TABLE_ACCESS_DENIED) {
                return Optional.empty();
            }
            throw e;
        }
        return Optional.of(new MemoryInstruments(arena, bufferPool, total));
    }
}
