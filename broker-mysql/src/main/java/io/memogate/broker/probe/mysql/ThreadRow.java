package io.memogate.broker.probe.mysql;

import java.util.Locale;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;

/**
 * One client connection's thread as the processlist shows it.
 *
 * @param id          its connection id (what KILL names)
 * @param command     what it does: "Sleep" when idle, "Query" or "Execute" when it runs a statement
 * @param state       the stage of its statement ("Statistics" while the optimizer searches join orders), or empty
 * @param memoryBytes what it holds now (MariaDB PROCESSLIST.MEMORY_USED, MySQL 8.0.31+ threads.TOTAL_MEMORY);
 *                    empty where the server does not report it
 */
record ThreadRow(long id, String command, String state, OptionalLong memoryBytes) {

    /**
     * The stages of the optimizer (MariaDB and MySQL stage names, compared without case): "Optimizing" for the
     * rewrites, "Statistics" for the join-order search (best_extension_by_limited_search runs inside it), and
     * "Preparing" after it.
     */
    private static final Set<String> OPTIMIZER_STAGES = Set.of("optimizing", "statistics", "preparing");

    ThreadRow {
        Objects.requireNonNull(command, "command");
        state = state == null ? "" : state;
        Objects.requireNonNull(memoryBytes, "memoryBytes");
    }

    /** Runs a statement: anything but idle. */
    boolean active() {
        return !command.equalsIgnoreCase("Sleep");
    }

    /** Its statement is being optimized (compiled) now. */
    boolean compiling() {
        return active() && OPTIMIZER_STAGES.contains(state.toLowerCase(Locale.ROOT));
    }
}
