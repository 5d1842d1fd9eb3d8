package io.memogate.proxy.config;

import io.memogate.proxy.config.AuthFile;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Recycling: replacing a session's server connection with a new one when its server process keeps a lot
 * of memory and the session has nothing on the server that a new connection would lack (DESIGN.md,
 * "sticky" compile memory: a PostgreSQL backend gives its planner memory back only when it exits).
 *
 * <p>The proxy logs in again on the client's behalf only as the server accepted the client before: the
 * same StartupMessage, and the same answer to the same method (trust; a cleartext password the client
 * sent; md5 or SCRAM-SHA-256 from the auth file's entry for the user, checked against what the client
 * proved). A session it cannot log in again for is never recycled.
 *
 * @param retainedAboveBytes recycle an idle server connection that retains more than this; 0: never
 * @param authFile the PgBouncer-style auth file ({@code "user" "secret"} lines), absolute, if one is named
 * @param secrets what it held when the configuration was read, or {@link AuthFile#EMPTY}
 */
public record RecycleConfig(long retainedAboveBytes, Optional<Path> authFile, AuthFile secrets) {

    /**
     * A server process that keeps more than this after its statements is one whose planner or sorts
     * took far beyond an OLTP statement's few MB; a new login costs a few milliseconds.
     */
    public static final long DEFAULT_RETAINED_ABOVE_BYTES = 64L << 20;

    /** What a file without a {@code recycle} section gets: on above 64 MB, no auth file. */
    public static final RecycleConfig DEFAULTS =
            new RecycleConfig(DEFAULT_RETAINED_ABOVE_BYTES, Optional.empty(), AuthFile.EMPTY);

    public RecycleConfig {
        Objects.requireNonNull(authFile, "authFile");
        Objects.requireNonNull(secrets, "secrets");
    }

    public boolean enabled() {
        return retainedAboveBytes > 0;
    }

    public RecycleConfig withRetainedAbove(long bytes) {
        return new RecycleConfig(bytes, authFile, secrets);
    }
}
