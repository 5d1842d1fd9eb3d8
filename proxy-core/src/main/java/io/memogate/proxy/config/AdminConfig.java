package io.memogate.proxy.config;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The operator's side of the proxy: the HTTP endpoint (metrics, health) and the admin console, a
 * PostgreSQL session to the virtual database {@value #CONSOLE_DATABASE} served by the proxy itself.
 *
 * <p>The console never decides who a user is: the login is relayed to the default backend's server,
 * database {@code authDatabase}, like any session's; only once that server has accepted it does the proxy
 * check the role against {@code users}.
 *
 * @param http the metrics and health endpoint
 * @param users roles that may use the console once the server has authenticated them; empty: nobody
 * @param authDatabase the database on the default backend that console logins are relayed to
 * @param watchInterval how often the configuration file is checked for changes (its content is
 *     compared); {@link Duration#ZERO} disables the check, leaving SIGHUP and RELOAD
 */
public record AdminConfig(AdminHttpConfig http, List<String> users, String authDatabase, Duration watchInterval) {

    /** The virtual database of the admin console, as PgBouncer's is "pgbouncer"; no backend may route it. */
    public static final String CONSOLE_DATABASE = "memogate";
    /** Exists on every PostgreSQL server and every role may usually connect to it. */
    public static final String DEFAULT_AUTH_DATABASE = "postgres";
    /** Often enough that an edit is live before the operator has switched windows; the check is one file read. */
    public static final Duration DEFAULT_WATCH_INTERVAL = Duration.ofSeconds(2);

    /** What a file without an {@code admin} section gets: the endpoint on 127.0.0.1:9930, no console users. */
    public static final AdminConfig DEFAULTS = new AdminConfig(AdminHttpConfig.DEFAULTS);

    public AdminConfig {
        Objects.requireNonNull(http, "http");
        users = List.copyOf(users);
        Objects.requireNonNull(authDatabase, "authDatabase");
        Objects.requireNonNull(watchInterval, "watchInterval");
    }

    /** The endpoint {@code http}, nobody on the console, the default auth database and watch interval. */
    public AdminConfig(AdminHttpConfig http) {
        this(http, List.of(), DEFAULT_AUTH_DATABASE, DEFAULT_WATCH_INTERVAL);
    }

    public AdminConfig withUsers(String... users) {
        return new AdminConfig(http, List.of(users), authDatabase, watchInterval);
    }

    public AdminConfig withAuthDatabase(String authDatabase) {
        return new AdminConfig(http, users, authDatabase, watchInterval);
    }

    public AdminConfig withWatchInterval(Duration watchInterval) {
        return new AdminConfig(http, users, authDatabase, watchInterval);
    }

    /** Whether {@code role}, already authenticated by the server, may use the console. Exact, as role names are. */
    public boolean isConsoleUser(String role) {
        return users.contains(role);
    }
}
