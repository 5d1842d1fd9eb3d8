package io.memogate.proxy.postgres.calibrate;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Measures the planner memory of statements on one PostgreSQL session with
 * {@code EXPLAIN (SUMMARY, MEMORY, COSTS OFF)}: the "Memory: used=NkB" line under "Planning:" (the
 * planner's memory context, PostgreSQL 17's explain.c {@code show_planning_memory}). EXPLAIN without
 * ANALYZE plans and does not run, so INSERT, UPDATE and DELETE in a corpus change nothing.
 */
public final class PlannerMemory {

    /** EXPLAIN's MEMORY option is new in PostgreSQL 17. */
    public static final int MIN_SERVER_VERSION_NUM = 170000;

    private static final Pattern USED = Pattern.compile("Memory: used=(\\d+)kB");

    private final Connection connection;

    public PlannerMemory(Connection connection) {
        this.connection = connection;
    }

    /**
     * The server's version, as {@code server_version}.
     *
     * @throws CalibrationException when it is older than PostgreSQL 17, which cannot report planner memory
     */
    public String requireMemoryOption() throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("select current_setting('server_version_num')::int, version()")) {
            row.next();
            int versionNum = row.getInt(1);
            String version = row.getString(2);
            if (versionNum < MIN_SERVER_VERSION_NUM) {
                throw new CalibrationException("calibrate needs PostgreSQL 17 or newer, whose EXPLAIN (MEMORY) reports "
                        + "planner memory; the server is " + version);
            }
            return version;
        }
    }

    /** Sets a setting for the rest of the session; quoting is the server's ({@code set_config}). */
    public void set(String name, String value) throws SQLException {
        try (var statement = connection.prepareStatement("select set_config(?, ?, false)")) {
            statement.setString(1, name);
            statement.setString(2, value);
            statement.execute();
        }
    }

    /**
     * Planner memory for {@code sql}, in bytes.
     *
     * @throws SQLException when the server refuses the statement (syntax, a missing table, the timeout)
     */
    public long measure(String sql) throws SQLException {
        StringBuilder plan = new StringBuilder();
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("explain (summary, memory, costs off) " + sql)) {
            while (rows.next()) {
                plan.append(rows.getString(1)).append('\n');
            }
        }
        return usedBytes(plan.toString());
    }

    /** The "used" figure of the Planning section of an EXPLAIN text, in bytes. */
    static long usedBytes(String plan) {
        int planning = plan.lastIndexOf("Planning:");
        Matcher used = USED.matcher(plan);
        if (planning < 0 || !used.find(planning)) {
            throw new CalibrationException("EXPLAIN (SUMMARY, MEMORY) gave no planning memory; its output was:\n" + plan);
        }
        return Long.parseLong(used.group(1)) * 1024;
    }
}
