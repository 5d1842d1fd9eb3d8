package io.memogate.broker.redis;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where a fleet's shared gateways live and how its instances keep their place in it.
 *
 * @param redisUri the Redis server, {@code redis://host:port} (Lettuce's URI syntax: {@code rediss://} for
 *     TLS, {@code redis://:password@host}, a database as {@code /n}); or the Sentinels that watch it and the
 *     name of the primary they watch, {@code redis-sentinel://host:26379,host2:26379#primary}: then every
 *     connection, and every reconnection after a failover, asks the Sentinels where the primary is
 * @param name the fleet: instances with the same name in front of the same server share its gateways
 * @param lease how long an instance that stopped renewing keeps what it holds: its permits, waiters and
 *     ledger rows return to the fleet this long after it was killed or cut off
 * @param pollInterval how often an instance with waiting statements asks for its decisions, in case a
 *     pub/sub wake-up was lost; also how soon a waiter's timeout is noticed
 */
public record FleetSettings(String redisUri, String name, Duration lease, Duration pollInterval) {

    public static final Duration DEFAULT_LEASE = Duration.ofSeconds(10);
    public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofMillis(100);
    public static final String SENTINEL_SCHEME = "redis-sentinel://";

    /** Kept to what is safe inside a Redis key and a hash tag. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

    public FleetSettings {
        Objects.requireNonNull(redisUri, "redisUri");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(pollInterval, "pollInterval");
        boolean sentinels = redisUri.startsWith(SENTINEL_SCHEME);
        if (!redisUri.startsWith("redis://") && !redisUri.startsWith("rediss://") && !sentinels) {
            throw new IllegalArgumentException("fleet.redis must be a redis:// or rediss:// URI, was '" + redisUri + "'");
        }
        if (sentinels && !redisUri.contains("#")) {
            throw new IllegalArgumentException("fleet.sentinel must name the primary the Sentinels watch after '#',"
                    + " was '" + redisUri + "'");
        }
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("fleet.name must be 1 to 64 letters, digits, '_', '.' or '-', was '"
                    + name + "'");
        }
        if (lease.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("fleet.lease must be at least 1s, was " + lease);
        }
        if (pollInterval.isNegative() || pollInterval.isZero() || pollInterval.compareTo(lease) >= 0) {
            throw new IllegalArgumentException("fleet.pollInterval must be positive and shorter than the lease, was "
                    + pollInterval);
        }
    }

    public FleetSettings(String redisUri, String name) {
        this(redisUri, name, DEFAULT_LEASE, DEFAULT_POLL_INTERVAL);
    }

    /** True when Sentinels say where the fleet's Redis is. */
    public boolean sentinel() {
        return redisUri.startsWith(SENTINEL_SCHEME);
    }

    /** The prefix of one server's keys: one hash tag, so that a Redis Cluster keeps them in one slot. */
    String keyPrefix(String server) {
        return "memogate:{" + name + "/" + server + "}:";
    }
}
