package io.memogate.testkit;

import java.net.URI;
import java.util.Objects;

/**
 * The PostgreSQL server and database an application's tests already use, which Memogate is put in front of.
 *
 * @param host its host name or address
 * @param port its port
 * @param database the database the tests connect to; {@link MemogateProxy#jdbcUrl()} names it
 */
public record TargetDatabase(String host, int port, String database) {

    private static final String PREFIX = "jdbc:postgresql://";

    public TargetDatabase {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(database, "database");
        if (host.isBlank()) {
            throw new IllegalArgumentException("the target database's host must not be blank");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("the target database's port must be in 1..65535, was " + port);
        }
        if (database.isBlank()) {
            throw new IllegalArgumentException("the target database's name must not be blank");
        }
    }

    /**
     * The server and database of a pgjdbc URL, {@code jdbc:postgresql://host:port/database?...}: one host, the
     * port 5432 when it names none; its parameters (user, password, ...) are the test's to pass again.
     *
     * @throws IllegalArgumentException for any other URL, naming it
     */
    public static TargetDatabase fromJdbcUrl(String jdbcUrl) {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        if (!jdbcUrl.startsWith(PREFIX)) {
            throw new IllegalArgumentException("expected a PostgreSQL JDBC URL (" + PREFIX + "host:port/database), was "
                    + withoutParameters(jdbcUrl));
        }
        URI uri = URI.create("postgresql://" + jdbcUrl.substring(PREFIX.length()));
        String path = uri.getPath() == null ? "" : uri.getPath();
        if (uri.getHost() == null || path.length() < 2 || jdbcUrl.indexOf(',') >= 0) {
            throw new IllegalArgumentException("expected one host and a database in the JDBC URL "
                    + "(" + PREFIX + "host:port/database), was " + withoutParameters(jdbcUrl));
        }
        return new TargetDatabase(uri.getHost(), uri.getPort() < 0 ? 5432 : uri.getPort(), path.substring(1));
    }

    /** Its parameters may carry a password: messages leave them out. */
    private static String withoutParameters(String jdbcUrl) {
        int query = jdbcUrl.indexOf('?');
        return query < 0 ? jdbcUrl : jdbcUrl.substring(0, query) + "?...";
    }
}
