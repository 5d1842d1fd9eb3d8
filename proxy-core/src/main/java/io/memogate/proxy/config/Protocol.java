package io.memogate.proxy.config;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The wire protocol a listener speaks to its clients, and so the kind of database server behind it: each
 * has its own wing (framing, startup and authentication relay, admission points, refusal in its own
 * protocol). A listener's protocol is set in the file as {@code listeners[].protocol}.
 */
public enum Protocol {
    /** PostgreSQL's frontend/backend protocol 3.0. */
    POSTGRESQL("postgresql"),
    /** The MySQL client/server protocol, which MariaDB speaks too. */
    MYSQL("mysql"),
    /** Tabular Data Stream, SQL Server's. */
    TDS("tds");

    private final String configName;

    Protocol(String configName) {
        this.configName = configName;
    }

    /** The word used in the YAML file, e.g. {@code postgresql}. */
    public String configName() {
        return configName;
    }

    /** The protocol spelled {@code word} in the YAML file (exact, lowercase). */
    public static Optional<Protocol> fromConfigName(String word) {
        return Arrays.stream(values()).filter(p -> p.configName.equals(word)).findFirst();
    }

    /** "postgresql, mysql, tds": for error messages. */
    static String configNames() {
        return Arrays.stream(values()).map(Protocol::configName).collect(Collectors.joining(", "));
    }

    @Override
    public String toString() {
        return configName;
    }
}
