package io.memogate.proxy.mysql.demo;

import io.memogate.broker.probe.mysql.MariaDbServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The demo's sales warehouse on MariaDB: database {@value #DATABASE}, used by {@value #OWNER} (password
 * {@value #OWNER_PASSWORD}), the PostgreSQL demo's snowflake of a fact table and 30 dimension tables with the
 * same rows (demo-schema.sql here), and a monitoring login for the broker. The PostgreSQL demo's reports
 * (postgres/embedded/demo-queries.sql) run on it unchanged.
 */
public final class MariaDbDemoSchema {

    public static final String DATABASE = "demo";
    public static final String OWNER = "memogate";
    public static final String OWNER_PASSWORD = "memogate";
    /** The broker's own login: PROCESS shows it every connection's memory, and nothing else is granted. */
    public static final String MONITOR = "memogate_monitor";
    public static final String MONITOR_PASSWORD = "memogate_monitor";

    private final MariaDbServer server;

    public MariaDbDemoSchema(MariaDbServer server) {
        this.server = server;
    }

    /** Creates the database, the two logins and the tables, as root over the server's own socket. */
    public void load() throws IOException, InterruptedException {
        String logins = "CREATE DATABASE " + DATABASE + ";\n"
                + "CREATE USER " + OWNER + "@'%' IDENTIFIED BY '" + OWNER_PASSWORD + "';\n"
                + "GRANT ALL ON " + DATABASE + ".* TO " + OWNER + "@'%';\n"
                + "CREATE USER " + MONITOR + "@'%' IDENTIFIED BY '" + MONITOR_PASSWORD + "';\n"
                + "GRANT PROCESS ON *.* TO " + MONITOR + "@'%';\n"
                + "GRANT SELECT ON performance_schema.* TO " + MONITOR + "@'%';\n"
                + "USE " + DATABASE + ";\n";
        server.asRoot(logins + schema());
    }

    private static String schema() {
        try (InputStream in = MariaDbDemoSchema.class.getResourceAsStream("demo-schema.sql")) {
            if (in == null) {
                throw new IllegalStateException("demo-schema.sql is missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
