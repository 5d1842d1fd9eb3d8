package io.memogate.proxy.config;

import java.util.Objects;
import java.util.Optional;

/**
 * The broker's dedicated monitoring connection: a JDBC connection straight to one backend's server (not
 * through the proxy), on which it reads the server's memory state each interval.
 *
 * @param user the login role; PostgreSQL must have granted it pg_monitor, or pg_stat_activity hides
 *     other roles' statements ({@code GRANT pg_monitor TO memogate_monitor})
 * @param password its password; empty when the server does not ask for one
 * @param database the database to connect to, {@value #DEFAULT_DATABASE} unless configured; the views the
 *     broker reads are cluster-wide, so any database serves
 * @param backend the name of the backend whose server is watched; empty means the default backend
 */
public record MonitorConfig(String user, Optional<String> password, String database, Optional<String> backend) {

    /** Exists in every cluster (initdb creates it), and the monitoring queries need nothing of their own. */
    public static final String DEFAULT_DATABASE = "postgres";

    public MonitorConfig {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(backend, "backend");
    }

    /** {@code user} without a password, on database {@value #DEFAULT_DATABASE} of the default backend. */
    public static MonitorConfig of(String user) {
        return new MonitorConfig(user, Optional.empty(), DEFAULT_DATABASE, Optional.empty());
    }

    public MonitorConfig withPassword(String password) {
        return new MonitorConfig(user, Optional.of(password), database, backend);
    }

    public MonitorConfig withDatabase(String database) {
        return new MonitorConfig(user, password, database, backend);
    }

    /** Watches the backend named {@code backend} instead of the default one. */
    public MonitorConfig withBackend(String backend) {
        return new MonitorConfig(user, password, database, Optional.of(backend));
    }

    /** Never prints the password. */
    @Override
    public String toString() {
        return "MonitorConfig[user=" + user + ", password=" + (password.isPresent() ? "(set)" : "(none)")
                + ", database=" + database + ", backend=" + backend.orElse("(default)") + "]";
    }
}
