package io.memogate.proxy.config;

import java.util.Objects;

/**
 * The operator's side of the proxy. Today the HTTP endpoint; the admin console (psql to the virtual
 * database {@code memogate}) will be configured here too, which is why {@code http} is a section of
 * its own rather than top-level keys.
 *
 * @param http the metrics and health endpoint
 */
public record AdminConfig(AdminHttpConfig http) {

    /** What a file without an {@code admin} section gets: the endpoint on 127.0.0.1:9930. */
    public static final AdminConfig DEFAULTS = new AdminConfig(AdminHttpConfig.DEFAULTS);

    public AdminConfig {
        Objects.requireNonNull(http, "http");
    }
}
