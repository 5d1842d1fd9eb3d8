package io.memogate.proxy.calibrate.mysql;

import io.memogate.estimator.mysql.OptimizerSettings;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * What MariaDB's optimizer spends on one statement, measured as bench/log/mysql-optimizer.md did: the statement
 * EXPLAINed (planned, not run) on a connection of its own, under its settings and {@code max_statement_time};
 * its time the CPU time {@code SHOW PROFILE CPU} gives it (the duration where it gives none, the client's wall
 * time where profiling is off), its memory as the
 * session's {@code information_schema.PROCESSLIST.MAX_MEMORY_USED} less that of a connection that only ran
 * {@code SELECT 1} (MariaDB; MySQL has no such column, and its memory is then not measured). A fresh connection
 * each, since the high-water mark never falls within a session.
 */
public final class OptimizerProbe {

    /** Opens a new connection to the server. */
    @FunctionalInterface
    public interface Connections {
        Connection open() throws SQLException;
    }

    /**
     * @param seconds the optimizer's time
     * @param bytes the optimizer's memory above an idle connection's; empty where the server does not say
     */
    public record Measured(double seconds, OptionalLong bytes) {
    }

    private final Connections connections;
    private final Optional<String> database;
    private final Duration limit;
    private long baseline = -1;

    /**
     * @param database the database to USE first; empty for the connection's own
     * @param limit max_statement_time of each statement: a search longer than this is interrupted (ERROR 1969)
     */
    public OptimizerProbe(Connections connections, Optional<String> database, Duration limit) {
        this.connections = Objects.requireNonNull(connections, "connections");
        this.database = Objects.requireNonNull(database, "database");
        this.limit = Objects.requireNonNull(limit, "limit");
    }

    /** max_statement_time of each statement. */
    public Duration limit() {
        return limit;
    }

    /** @throws SQLException when the statement fails, or is interrupted at the limit */
    public Measured measure(String sql, OptimizerSettings settings) throws SQLException {
        if (baseline < 0) {
            baseline = explain("SELECT 1", settings).bytes().orElse(0);
        }
        Measured raw = explain(sql, settings);
        return new Measured(raw.seconds(), raw.bytes().isPresent()
                ? OptionalLong.of(Math.max(0, raw.bytes().getAsLong() - baseline)) : OptionalLong.empty());
    }

    private Measured explain(String sql, OptimizerSettings settings) throws SQLException {
        try (Connection connection = connections.open(); Statement s = connection.createStatement()) {
            if (database.isPresent()) {
                s.execute("USE " + database.get());
            }
            s.execute("SET SESSION optimizer_prune_level = " + settings.pruneLevel() + ", optimizer_search_depth = "
                    + settings.searchDepth() + ", max_statement_time = " + limit.toMillis() / 1000.0);
            boolean profiling = trySet(s, "SET SESSION profiling = 1");
            long start = System.nanoTime();
            s.execute("EXPLAIN " + sql);
            double wall = (System.nanoTime() - start) / 1e9;
            OptionalLong bytes = maxMemoryUsed(s); // before SHOW PROFILE, whose own memory would raise the mark
            OptionalDouble profiled = profiling ? profiled(s) : OptionalDouble.empty();
            return new Measured(profiled.orElse(wall), bytes);
        }
    }

    private static boolean trySet(Statement s, String set) {
        try {
            s.execute(set);
            return true;
        } catch (SQLException e) {
            return false; // a server without profiling: the wall time stands for it
        }
    }

    /**
     * The EXPLAIN's CPU time in SHOW PROFILE CPU (user and system, summed over its stages), else its duration in
     * SHOW PROFILES. CPU time, since the search is CPU work: on a server whose cores other work shares, the
     * duration also counts the time the thread waited for a core, several times the search on a loaded machine.
     */
    private static OptionalDouble profiled(Statement s) throws SQLException {
        OptionalDouble duration = OptionalDouble.empty();
        long id = -1;
        try (ResultSet rows = s.executeQuery("SHOW PROFILES")) {
            while (rows.next()) {
                if (rows.getString("Query").startsWith("EXPLAIN")) {
                    duration = OptionalDouble.of(rows.getDouble("Duration"));
                    id = rows.getLong("Query_ID");
                }
            }
        }
        if (id < 0) {
            return duration;
        }
        double cpu = 0;
        try (ResultSet stages = s.executeQuery("SHOW PROFILE CPU FOR QUERY " + id)) {
            while (stages.next()) {
                cpu += stages.getDouble("CPU_user") + stages.getDouble("CPU_system");
            }
        }
        return cpu > 0 ? OptionalDouble.of(cpu) : duration;
    }

    private static OptionalLong maxMemoryUsed(Statement s) {
        try (ResultSet rows = s.executeQuery(
                "SELECT MAX_MEMORY_USED FROM information_schema.PROCESSLIST WHERE ID = CONNECTION_ID()")) {
            return rows.next() ? OptionalLong.of(rows.getLong(1)) : OptionalLong.empty();
        } catch (SQLException e) {
            return OptionalLong.empty(); // MySQL: no such column
        }
    }
}
