package io.memogate.bench.passthrough;

import io.memogate.bench.pgbench.PgbenchLoad;
import io.memogate.bench.pgbench.QueryMode;
import io.memogate.bench.targets.TargetKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What one `bench passthrough` run does: {@code rounds} rounds, each running every mode against every
 * target for {@code seconds}, after one unrecorded warm-up run per mode and target.
 *
 * @param warmupSeconds 0 for none; the warm-up is the same for every target (PostgreSQL's caches, the
 *                      JIT of the in-JVM proxy, PgBouncer's pool) so that round 1 is not an outlier
 * @param clients       pgbench -c of each pass over the rounds, in order: the whole plan runs once per count
 * @param scale         pgbench's scale factor for the data set (-i -s)
 * @param counts        count each relay's system calls, context switches and allocation over each run
 * @param window        the part of each run the relay's CPU and counts are read over
 * @param baseline      another checkout, run as memogate-baseline beside memogate-shipped; naming one adds that
 *                      target to the plan when {@code targets} does not list it
 * @param restarts      stop each target that relays in a process of its own and start it again before every round
 *                      after the first, warmed up again: each round then measures another process of each build,
 *                      and the spread over the rounds includes how much two processes of the same code differ
 */
public record PassthroughPlan(int rounds, int seconds, int warmupSeconds, List<Integer> clients, int threads,
                              List<QueryMode> modes, List<TargetKind> targets, int scale, Path outputDirectory,
                              boolean counts, CountWindow window, Optional<Path> baseline, boolean restarts) {

    public PassthroughPlan {
        clients = List.copyOf(clients);
        modes = List.copyOf(modes);
        Objects.requireNonNull(outputDirectory, "outputDirectory");
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(baseline, "baseline");
        targets = withBaseline(targets, baseline.isPresent());
        refusePreparedBehindTransactionPooling(modes, targets);
        if (rounds < 1) {
            throw new IllegalArgumentException("--rounds must be at least 1, was " + rounds);
        }
        if (warmupSeconds < 0) {
            throw new IllegalArgumentException("--warmup must be 0 or more seconds, was " + warmupSeconds);
        }
        if (scale < 1) {
            throw new IllegalArgumentException("--scale must be at least 1, was " + scale);
        }
        if (modes.isEmpty() || new HashSet<>(modes).size() != modes.size()) {
            throw new IllegalArgumentException("--modes must name each mode once, was " + modes);
        }
        // Direct is not required: without it the "ratio to direct" column is n/a, and the comparisons
        // between the targets that ran (memogate-gated / memogate) still hold.
        if (targets.isEmpty() || new HashSet<>(targets).size() != targets.size()) {
            throw new IllegalArgumentException("--targets must name each target once, was " + targets);
        }
        if (clients.isEmpty() || new HashSet<>(clients).size() != clients.size()) {
            throw new IllegalArgumentException("--clients must name each count once, was " + clients);
        }
        // Validates seconds, clients and threads as pgbench would (the fields are not assigned yet here).
        for (int count : clients) {
            load(modes.getFirst(), seconds, count, threads);
        }
    }

    /** A plan whose targets run in the same processes for all its rounds. */
    public PassthroughPlan(int rounds, int seconds, int warmupSeconds, List<Integer> clients, int threads,
                           List<QueryMode> modes, List<TargetKind> targets, int scale, Path outputDirectory,
                           boolean counts, CountWindow window, Optional<Path> baseline) {
        this(rounds, seconds, warmupSeconds, clients, threads, modes, targets, scale, outputDirectory, counts, window,
                baseline, false);
    }

    /** A plan without a baseline checkout. */
    public PassthroughPlan(int rounds, int seconds, int warmupSeconds, List<Integer> clients, int threads,
                           List<QueryMode> modes, List<TargetKind> targets, int scale, Path outputDirectory,
                           boolean counts, CountWindow window) {
        this(rounds, seconds, warmupSeconds, clients, threads, modes, targets, scale, outputDirectory, counts, window,
                Optional.empty());
    }

    /** A plan without the counts, as the timing runs use it. */
    public PassthroughPlan(int rounds, int seconds, int warmupSeconds, List<Integer> clients, int threads,
                           List<QueryMode> modes, List<TargetKind> targets, int scale, Path outputDirectory) {
        this(rounds, seconds, warmupSeconds, clients, threads, modes, targets, scale, outputDirectory, false,
                CountWindow.STEADY);
    }

    public PgbenchLoad load(QueryMode mode, int clientCount) {
        return load(mode, seconds, clientCount, threads);
    }

    public PgbenchLoad warmup(QueryMode mode, int clientCount) {
        return load(mode, warmupSeconds, clientCount, threads);
    }

    /** The most clients of any pass: what the server and the poolers must accept at once. */
    public int mostClients() {
        return clients.stream().mapToInt(Integer::intValue).max().orElseThrow();
    }

    /**
     * pgbench -M prepared prepares each statement once per connection and runs it in later transactions, which a
     * transaction pooler sends to whichever server connection is free: "prepared statement does not exist". PgBouncer
     * before 1.21 keeps no prepared statements in transaction mode (as docs/operations.md says of pgjdbc).
     */
    private static void refusePreparedBehindTransactionPooling(List<QueryMode> modes, List<TargetKind> targets) {
        List<TargetKind> pooled = targets.stream().filter(TargetKind::poolsTransactions).toList();
        if (modes.contains(QueryMode.PREPARED) && !pooled.isEmpty()) {
            throw new IllegalArgumentException("--modes prepared cannot run through PgBouncer in transaction mode ("
                    + pooled.stream().map(TargetKind::label).collect(Collectors.joining(", "))
                    + "): it keeps no prepared statement across server connections; use --modes simple,extended");
        }
    }

    /**
     * The targets with memogate-baseline after memogate-shipped (or last) when a baseline is named and they do not
     * list it; a list naming it without a baseline is refused, as the target would only be skipped.
     */
    private static List<TargetKind> withBaseline(List<TargetKind> targets, boolean baselineNamed) {
        boolean listed = targets.contains(TargetKind.MEMOGATE_BASELINE);
        if (listed && !baselineNamed) {
            throw new IllegalArgumentException("--targets memogate-baseline needs --baseline DIR, the checkout it runs");
        }
        if (listed || !baselineNamed) {
            return List.copyOf(targets);
        }
        List<TargetKind> added = new ArrayList<>(targets);
        int shipped = added.indexOf(TargetKind.MEMOGATE_SHIPPED);
        added.add(shipped < 0 ? added.size() : shipped + 1, TargetKind.MEMOGATE_BASELINE);
        return List.copyOf(added);
    }

    private static PgbenchLoad load(QueryMode mode, int runSeconds, int clients, int threads) {
        try {
            return new PgbenchLoad(mode, runSeconds, clients, threads);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--seconds, --clients, --threads: " + e.getMessage(), e);
        }
    }
}
