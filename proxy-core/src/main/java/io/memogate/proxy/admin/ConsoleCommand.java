package io.memogate.proxy.admin;

import java.util.List;
import java.util.Optional;

/**
 * The admin console's commands, PgBouncer's habits: one per query, words in any letter case, an optional
 * trailing semicolon.
 * <pre>
 *   SHOW TIERS | QUEUE | STATEMENTS | STATS | CLIENTS | SERVERS | BACKENDS (or DATABASES) | BROKER | CATALOGS | CONFIG
 *        | VERSION | HELP
 *   EXPLAIN ADMISSION [DATABASE name] statement
 *   SET tiers.tier.field = value        (or TO; the value may be quoted: '2min')
 *   RELOAD | PAUSE | RESUME
 *   REFRESH CATALOGS [database]
 *   CANCEL server_pid [ON backend] | KILL server_pid [ON backend]
 * </pre>
 * {@link ConsoleCommandParser} reads them.
 */
public sealed interface ConsoleCommand {

    /**
     * Whether the command answers with rows (SHOW, EXPLAIN ADMISSION). Those are exactly the commands that
     * change nothing, so a protocol may run one just to describe its columns (PostgreSQL's Describe).
     */
    default boolean returnsRows() {
        return this instanceof ShowCommand || this instanceof ExplainAdmission;
    }

    /** BACKENDS is also read as SHOW DATABASES, PgBouncer's name for its routing table. */
    enum Show { TIERS, QUEUE, STATEMENTS, STATS, CLIENTS, SERVERS, BACKENDS, BROKER, CATALOGS, CONFIG, VERSION, HELP }

    record ShowCommand(Show what) implements ConsoleCommand {}

    /**
     * @param database the database whose indexes the estimate reads, as a session of it would be estimated
     *     ({@code EXPLAIN ADMISSION DATABASE name ...}); empty: from the SQL alone
     * @param statements the SQL text after EXPLAIN ADMISSION [DATABASE name], as written (it may hold
     *     several statements)
     */
    record ExplainAdmission(Optional<String> database, String statements) implements ConsoleCommand {}

    /** @param key as written, e.g. {@code tiers.small.limit}; @param value unquoted */
    record Set(String key, String value) implements ConsoleCommand {}

    /**
     * SET of a PostgreSQL client setting that drivers send when they connect (pgjdbc: {@code SET
     * application_name = 'PostgreSQL JDBC Driver'}): accepted and ignored, as PgBouncer's console does, so
     * those drivers can use the console. The console's answers do not depend on any of them.
     */
    record ClientSet(String name) implements ConsoleCommand {}

    record Reload() implements ConsoleCommand {}

    record Pause() implements ConsoleCommand {}

    record Resume() implements ConsoleCommand {}

    /** @param database the one database whose catalog to read again; empty: every one read so far */
    record RefreshCatalogs(Optional<String> database) implements ConsoleCommand {}

    /**
     * @param serverPid the session's server process, as SHOW CLIENTS and SHOW QUEUE show it
     * @param backend {@code ON backend}: needed when sessions on two backends have that process id
     */
    record CancelSession(int serverPid, Optional<String> backend) implements ConsoleCommand {}

    /** As {@link CancelSession}. */
    record KillSession(int serverPid, Optional<String> backend) implements ConsoleCommand {}

    /** Every command, for the message that answers an unknown one and for SHOW HELP. */
    List<String> SYNOPSIS = List.of(
            "SHOW TIERS", "SHOW QUEUE", "SHOW STATEMENTS", "SHOW STATS", "SHOW CLIENTS", "SHOW SERVERS", "SHOW BACKENDS", "SHOW BROKER",
            "SHOW CATALOGS",
            "SHOW CONFIG", "SHOW VERSION",
            "SHOW HELP", "EXPLAIN ADMISSION [DATABASE <name>] <statement>", "SET tiers.<small|medium|large>.<field> = <value>",
            "RELOAD", "PAUSE", "RESUME", "REFRESH CATALOGS [<database>]", "CANCEL <server_pid> [ON <backend>]",
            "KILL <server_pid> [ON <backend>]");
}
