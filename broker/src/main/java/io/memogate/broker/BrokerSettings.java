package io.memogate.broker;

import java.time.Duration;
import java.util.Objects;
import java.util.OptionalLong;

import io.memogate.broker.probe.ProbeSettings;

/**
 * How the broker polls and sizes the compile-memory target. Immutable and validated once; messages name
 * the field. Start from {@link #builder(String, String, String)}, which holds the defaults below.
 *
 * @param jdbcUrl            the dedicated monitoring connection's JDBC URL
 * @param user               the monitoring login role (PostgreSQL: needs pg_monitor)
 * @param password           its password, or null when the server does not ask for one
 * @param interval           time between the end of one poll and the start of the next
 * @param gracePeriod        how long the last good target is kept while polls fail
 * @param compileShare       the share of spare memory compiles may use, in (0, 1]
 * @param hostMemoryBytes    the memory of the server's host; when empty, read from /proc/meminfo if
 *                           co-located, otherwise unknown and the target stays at the static one
 * @param coLocated          the server runs on this host, in this pid namespace, so /proc shows its
 *                           processes
 * @param staticTargetBytes  the target when nothing is known: before the first good poll and once the
 *                           grace period has run out
 * @param minimumTargetBytes the target never goes below this
 * @param pressureShrink     under pressure the target is multiplied by this once per poll, in (0, 1)
 * @param recoveryStep       without pressure the target rises by at most this share of the raw target
 *                           per poll, in (0, 1]
 */
public record BrokerSettings(
        String jdbcUrl,
        String user,
        String password,
        Duration interval,
        Duration gracePeriod,
        double compileShare,
        OptionalLong hostMemoryBytes,
        boolean coLocated,
        long staticTargetBytes,
        long minimumTargetBytes,
        double pressureShrink,
        double recoveryStep) {

    private static final long MIB = 1024L * 1024;

    /**
     * A compile storm builds in seconds (a 16-table star join plans for 7.5 s, DESIGN.md), and a poll is
     * five catalog queries on one open connection: once a second sees a storm early at negligible cost.
     */
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(1);
    /**
     * Ten polls: rides out a short network blip or a busy server without dropping to the static guess,
     * yet does not steer for long on memory figures that are going out of date.
     */
    public static final Duration DEFAULT_GRACE_PERIOD = Duration.ofSeconds(10);
    /**
     * Half the spare memory: the paper's gateways give compilation a part of memory, not all of it; the
     * other half absorbs what no setting bounds (execution beyond work_mem, caches, the page cache).
     */
    public static final double DEFAULT_COMPILE_SHARE = 0.5;
    /**
     * Without live data: ten 12-table star joins (26 MB each) plan at once, while one 16-table star
     * join (615 MB) is already far above the target and waits its turn in the large gateway.
     */
    public static final long DEFAULT_STATIC_TARGET_BYTES = 256 * MIB;
    /** The floor keeps ordinary joins flowing under pressure: a 12-table star join (26 MB) still fits twice. */
    public static final long DEFAULT_MINIMUM_TARGET_BYTES = 64 * MIB;
    /** A quarter less per poll: below half within three polls, so a storm is checked within seconds. */
    public static final double DEFAULT_PRESSURE_SHRINK = 0.75;
    /**
     * 5% of the raw target per poll: from the floor back to the raw target takes about 20 polls, far
     * slower than the shrink, so a server that keeps tipping into pressure keeps a low target.
     */
    public static final double DEFAULT_RECOVERY_STEP = 0.05;
    /**
     * Connecting and each read may take this many intervals: a hung server fails the poll after a few
     * intervals instead of holding the broker's thread, while a merely slow one is not cut off.
     */
    public static final int PROBE_TIMEOUT_INTERVALS = 3;
    /** pgjdbc counts timeouts in whole seconds. */
    private static final Duration MINIMUM_PROBE_TIMEOUT = Duration.ofSeconds(1);

    public BrokerSettings {
        if (jdbcUrl == null || !jdbcUrl.startsWith("jdbc:")) {
            throw new IllegalArgumentException("jdbcUrl must be a JDBC URL (jdbc:...), was " + jdbcUrl);
        }
        if (user == null || user.isBlank()) {
            throw new IllegalArgumentException("user must name the monitoring login role");
        }
        Objects.requireNonNull(interval, "interval");
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("interval must be positive, was " + interval);
        }
        Objects.requireNonNull(gracePeriod, "gracePeriod");
        if (gracePeriod.isNegative()) {
            throw new IllegalArgumentException("gracePeriod must be >= 0, was " + gracePeriod);
        }
        if (!(compileShare > 0 && compileShare <= 1)) {
            throw new IllegalArgumentException("compileShare must be in (0, 1], was " + compileShare);
        }
        Objects.requireNonNull(hostMemoryBytes, "hostMemoryBytes");
        if (hostMemoryBytes.isPresent() && hostMemoryBytes.getAsLong() <= 0) {
            throw new IllegalArgumentException("hostMemoryBytes must be > 0 when set, was "
                    + hostMemoryBytes.getAsLong());
        }
        if (minimumTargetBytes <= 0) {
            throw new IllegalArgumentException("minimumTargetBytes must be > 0, was " + minimumTargetBytes);
        }
        if (staticTargetBytes < minimumTargetBytes) {
            throw new IllegalArgumentException("staticTargetBytes must be >= minimumTargetBytes ("
                    + minimumTargetBytes + "), was " + staticTargetBytes);
        }
        if (!(pressureShrink > 0 && pressureShrink < 1)) {
            throw new IllegalArgumentException("pressureShrink must be in (0, 1), was " + pressureShrink);
        }
        if (!(recoveryStep > 0 && recoveryStep <= 1)) {
            throw new IllegalArgumentException("recoveryStep must be in (0, 1], was " + recoveryStep);
        }
    }

    /** Settings with every default, for the given monitoring connection. */
    public static Builder builder(String jdbcUrl, String user, String password) {
        return new Builder(jdbcUrl, user, password);
    }

    /** A builder holding these settings, to change a few of them. */
    public Builder toBuilder() {
        return new Builder(jdbcUrl, user, password).interval(interval).gracePeriod(gracePeriod)
                .compileShare(compileShare).hostMemoryBytes(hostMemoryBytes).coLocated(coLocated)
                .staticTargetBytes(staticTargetBytes).minimumTargetBytes(minimumTargetBytes)
                .pressureShrink(pressureShrink).recoveryStep(recoveryStep);
    }

    /** {@link #PROBE_TIMEOUT_INTERVALS} intervals, at least one second. */
    public Duration probeTimeout() {
        Duration timeout = interval.multipliedBy(PROBE_TIMEOUT_INTERVALS);
        return timeout.compareTo(MINIMUM_PROBE_TIMEOUT) < 0 ? MINIMUM_PROBE_TIMEOUT : timeout;
    }

    /** What a probe needs to reach the server. */
    public ProbeSettings probeSettings() {
        return new ProbeSettings(jdbcUrl, user, password, coLocated, probeTimeout());
    }

    /** Never prints the password, nor URL parameters (which may carry one). */
    @Override
    public String toString() {
        return "BrokerSettings[" + probeSettings() + ", interval=" + interval + ", gracePeriod=" + gracePeriod
                + ", compileShare=" + compileShare + ", hostMemoryBytes=" + hostMemoryBytes
                + ", staticTargetBytes=" + staticTargetBytes + ", minimumTargetBytes=" + minimumTargetBytes
                + ", pressureShrink=" + pressureShrink + ", recoveryStep=" + recoveryStep + "]";
    }

    /** Collects settings; {@link #build()} validates them. */
    public static final class Builder {
        private final String jdbcUrl;
        private final String user;
        private final String password;
        private Duration interval = DEFAULT_INTERVAL;
        private Duration gracePeriod = DEFAULT_GRACE_PERIOD;
        private double compileShare = DEFAULT_COMPILE_SHARE;
        private OptionalLong hostMemoryBytes = OptionalLong.empty();
        private boolean coLocated;
        private long staticTargetBytes = DEFAULT_STATIC_TARGET_BYTES;
        private long minimumTargetBytes = DEFAULT_MINIMUM_TARGET_BYTES;
        private double pressureShrink = DEFAULT_PRESSURE_SHRINK;
        private double recoveryStep = DEFAULT_RECOVERY_STEP;

        private Builder(String jdbcUrl, String user, String password) {
            this.jdbcUrl = jdbcUrl;
            this.user = user;
            this.password = password;
        }

        public Builder interval(Duration interval) {
            this.interval = interval;
            return this;
        }

        public Builder gracePeriod(Duration gracePeriod) {
            this.gracePeriod = gracePeriod;
            return this;
        }

        public Builder compileShare(double compileShare) {
            this.compileShare = compileShare;
            return this;
        }

        public Builder hostMemoryBytes(long hostMemoryBytes) {
            return hostMemoryBytes(OptionalLong.of(hostMemoryBytes));
        }

        public Builder hostMemoryBytes(OptionalLong hostMemoryBytes) {
            this.hostMemoryBytes = hostMemoryBytes;
            return this;
        }

        public Builder coLocated(boolean coLocated) {
            this.coLocated = coLocated;
            return this;
        }

        public Builder staticTargetBytes(long staticTargetBytes) {
            this.staticTargetBytes = staticTargetBytes;
            return this;
        }

        public Builder minimumTargetBytes(long minimumTargetBytes) {
            this.minimumTargetBytes = minimumTargetBytes;
            return this;
        }

        public Builder pressureShrink(double pressureShrink) {
            this.pressureShrink = pressureShrink;
            return this;
        }

        public Builder recoveryStep(double recoveryStep) {
            this.recoveryStep = recoveryStep;
            return this;
        }

        public BrokerSettings build() {
            return new BrokerSettings(jdbcUrl, user, password, interval, gracePeriod, compileShare, hostMemoryBytes,
                    coLocated, staticTargetBytes, minimumTargetBytes, pressureShrink, recoveryStep);
        }
    }
}
