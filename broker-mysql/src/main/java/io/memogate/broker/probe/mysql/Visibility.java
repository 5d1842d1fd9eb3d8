package io.memogate.broker.probe.mysql;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the monitoring user can read on this server, and what the probe falls back to for what it cannot: the
 * operator is told once ({@link #fallbacks()}), in words naming the grant that would lift each fallback.
 *
 * @param flavor            which server
 * @param rights            the user and its PROCESS privilege
 * @param performanceSchema whether performance_schema runs (the server's option, off by default on MariaDB)
 * @param instrumentsRead   whether the user could read its memory instruments (SELECT on performance_schema)
 */
record Visibility(Flavor flavor, MonitoringRights rights, boolean performanceSchema, boolean instrumentsRead) {

    Visibility {
        Objects.requireNonNull(flavor, "flavor");
        Objects.requireNonNull(rights, "rights");
    }

    /** What the probe reads differently from a fully privileged user, with what to do; empty when nothing. */
    Optional<String> fallbacks() {
        List<String> notes = new ArrayList<>();
        String account = rights.account();
        if (!rights.process()) {
            notes.add("without PROCESS it sees only its own connections: connections are counted from Threads_connected"
                    + " and Threads_running (no connection ids), the running statements' memory is taken from "
                    + (flavor == Flavor.MARIADB ? "Memory_used - Memory_used_initial (every connection's)"
                            : "Global_connection_memory or performance_schema's total, else Threads_running x sort_buffer_size")
                    + ", and no statement is seen compiling (GRANT PROCESS ON *.* TO " + account + ")");
        }
        if (performanceSchema && !instrumentsRead) {
            notes.add("performance_schema is on but the user may not read it, so its memory instruments are not used"
                    + " (GRANT SELECT ON performance_schema.* TO " + account + ")");
        }
        if (notes.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(flavor.displayName() + " monitoring user " + account + " reads less than it could: "
                + String.join("; ", notes));
    }
}
