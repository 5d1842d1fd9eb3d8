package io.memogate.bench.storm;

import io.memogate.bench.storm.governor.MemoryGovernor;
import io.memogate.bench.storm.load.ConnectionStyle;
import io.memogate.bench.storm.load.Mode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What one storm run does, validated once; messages name the option.
 *
 * <p>Cells are (clients, style, mode); all modes of one client count and style run back to back, in an
 * order that rotates from one such group to the next, so that no mode always runs first or last while
 * the machine's other load drifts (docs/DESIGN.md, Testing: ratios measured side by side in one run).
 *
 * @param hostMemoryBytes  the emulated database host: the governor's limit on the server's private memory
 * @param governorInterval how often the governor samples, at most {@link MemoryGovernor#MAX_INTERVAL}
 * @param retryPause       wait after a lost connection before the next attempt
 * @param slice            the width of one time slice in the charts
 * @param recycleAboveBytes gateways-on: recycle an idle session's server connection that keeps more than this
 *                         (recycle.retainedAbove); 0 turns recycling off
 * @param instances        Memogate instances in front of the server, the clients spread evenly over them: with
 *                         gateways-on each has its own gateways, with fleet they share one set through Redis
 */
public record StormPlan(List<Integer> clients, List<ConnectionStyle> styles, List<Mode> modes, Duration warmup,
                        Duration measured, Duration slice, long hostMemoryBytes, Duration governorInterval,
                        int retries, Duration retryPause, long seed, Path outputDirectory, long recycleAboveBytes,
                        int instances) {

    /** The most instances a plan may ask for: each keeps its own broker connection to the server. */
    public static final int MAX_INSTANCES = 8;

    /** One measured run: a number of clients, a connection style, a mode. */
    public record Cell(int clients, ConnectionStyle style, Mode mode) {
        public String label() {
            return clients + "-" + style.label() + "-" + mode.label();
        }
    }

    public StormPlan {
        clients = List.copyOf(clients);
        styles = List.copyOf(styles);
        modes = List.copyOf(modes);
        if (clients.isEmpty() || clients.stream().anyMatch(c -> c < 1 || c > 90)) {
            // max_connections is 100: the clients, the broker and PostgreSQL's reserved slots must fit.
            throw new IllegalArgumentException("--clients must list numbers in [1, 90], was " + clients);
        }
        if (styles.isEmpty()) {
            throw new IllegalArgumentException("--styles must name at least one of new, persistent");
        }
        if (modes.isEmpty() || modes.stream().distinct().count() != modes.size()) {
            throw new IllegalArgumentException("--modes must name distinct modes, was " + modes);
        }
        if (warmup.isNegative()) {
            throw new IllegalArgumentException("--warmup must be >= 0, was " + warmup.toSeconds());
        }
        if (measured.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("--seconds must be >= 1, was " + measured.toSeconds());
        }
        if (slice.isNegative() || slice.isZero() || slice.compareTo(measured) > 0) {
            throw new IllegalArgumentException("--slice must be in [1, --seconds], was " + slice.toSeconds());
        }
        if (hostMemoryBytes < 256L << 20) {
            throw new IllegalArgumentException("--host-memory must be at least 256MiB, was " + hostMemoryBytes);
        }
        if (governorInterval.isNegative() || governorInterval.isZero()
                || governorInterval.compareTo(MemoryGovernor.MAX_INTERVAL) > 0) {
            throw new IllegalArgumentException("--governor-interval must be in [1, "
                    + MemoryGovernor.MAX_INTERVAL.toMillis() + "] ms, was " + governorInterval.toMillis());
        }
        if (retries < 0) {
            throw new IllegalArgumentException("--retries must be >= 0, was " + retries);
        }
        if (recycleAboveBytes < 0) {
            throw new IllegalArgumentException("--recycle-above must be >= 0, was " + recycleAboveBytes);
        }
        if (instances < 1 || instances > MAX_INSTANCES) {
            throw new IllegalArgumentException("--instances must be in [1, " + MAX_INSTANCES + "], was " + instances);
        }
        if (clients.stream().anyMatch(c -> c < instances)) {
            throw new IllegalArgumentException("--clients must be at least --instances (" + instances
                    + ") so that every instance has a client, was " + clients);
        }
        if (retryPause.isNegative()) {
            throw new IllegalArgumentException("--retry-pause must be >= 0, was " + retryPause.toMillis() + " ms");
        }
    }

    /** One instance, as the storm ran before there were fleets. */
    public StormPlan(List<Integer> clients, List<ConnectionStyle> styles, List<Mode> modes, Duration warmup,
                     Duration measured, Duration slice, long hostMemoryBytes, Duration governorInterval, int retries,
                     Duration retryPause, long seed, Path outputDirectory, long recycleAboveBytes) {
        this(clients, styles, modes, warmup, measured, slice, hostMemoryBytes, governorInterval, retries, retryPause,
                seed, outputDirectory, recycleAboveBytes, 1);
    }

    /** The cells in the order they run. */
    public List<Cell> cells() {
        List<Cell> cells = new ArrayList<>();
        int group = 0;
        for (int count : clients) {
            for (ConnectionStyle style : styles) {
                for (int i = 0; i < modes.size(); i++) {
                    cells.add(new Cell(count, style, modes.get((group + i) % modes.size())));
                }
                group++;
            }
        }
        return cells;
    }

    /** The compile-memory target the gateways start from, before the broker's first poll: half the host. */
    public long staticTargetBytes() {
        return hostMemoryBytes / 2;
    }
}
