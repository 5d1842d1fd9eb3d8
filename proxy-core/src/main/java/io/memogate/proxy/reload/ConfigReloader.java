package io.memogate.proxy.reload;

import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.Gateways;
import io.memogate.proxy.config.ConfigException;
import io.memogate.proxy.config.ConfigLoader;
import io.memogate.proxy.config.Durations;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.config.TierField;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Changes the configuration in force while the proxy runs: a reload of the file (on SIGHUP, on a change
 * of the file, on the console's RELOAD) and the console's SET of a tier setting.
 *
 * <p>A reload reads and validates the whole file first; a file that does not validate, cannot be read or
 * is gone is refused, its problems logged and returned to whoever asked, and nothing changes. A valid one
 * is applied as {@link ReloadPlan} says: the gateways are resized in place, the server takes routing,
 * TLS and limits for new sessions, the console its users, sessions the new wait notice, at once; settings
 * that need a restart are logged and reported as not applied. Nothing is written to the file, and a SET
 * lasts until the next reload or restart.
 *
 * <p>Every change runs on one thread, "memogate-config", in the order asked for, so a reload and a SET
 * never interleave and the event loops never wait for a file. The file is watched by comparing its text
 * every {@code admin.watchInterval}: robust where file events are not (editors that replace the file,
 * Kubernetes' symlink swaps, network file systems), and a one-page read.
 */
public final class ConfigReloader implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ConfigReloader.class);

    /** What the server does with a new configuration (for new sessions, and its live limits). */
    @FunctionalInterface
    public interface ServerTarget {
        /** @throws RuntimeException when it cannot (a TLS certificate that does not load); nothing changed then */
        void reconfigure(MemogateConfig next);
    }

    /** Counters and the last outcome, for SHOW STATS. */
    public record Statistics(long reloads, long refused, Optional<Instant> lastAt, Optional<String> lastOutcome) {}

    private final CurrentConfig current;
    private final Optional<Path> file;
    private final ConfigLoader loader;
    private final ServerTarget server;
    /** Resizes every server's gateways in place to the settings given. */
    private final Consumer<GatewaySettings> gateways;
    private final Supplier<Instant> clock;
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread t = new Thread(task, "memogate-config");
        t.setDaemon(true);
        return t;
    });

    // Confined to the config thread.
    /** The file's text when it was last read; null when it was missing or unreadable. */
    private String lastText;
    private long reloads;
    private long refused;
    private volatile Statistics statistics = new Statistics(0, 0, Optional.empty(), Optional.empty());
    private final List<BiConsumer<MemogateConfig, MemogateConfig>> applied = new CopyOnWriteArrayList<>();

    /**
     * @param file the file the configuration came from; empty when it was built in code (demo), and then
     *     there is nothing to reload
     */
    public ConfigReloader(CurrentConfig current, Optional<Path> file, ConfigLoader loader, ServerTarget server,
                          Optional<Gateways> gateways, Supplier<Instant> clock) {
        this(current, file, loader, server, settings -> gateways.ifPresent(g -> g.reconfigure(settings)), clock);
    }

    /**
     * @param file the file the configuration came from; empty when it was built in code (demo), and then
     *     there is nothing to reload
     * @param gateways resizes the gateways of every server to the tier settings given, in place
     */
    public ConfigReloader(CurrentConfig current, Optional<Path> file, ConfigLoader loader, ServerTarget server,
                          Consumer<GatewaySettings> gateways, Supplier<Instant> clock) {
        this.current = Objects.requireNonNull(current, "current");
        this.file = Objects.requireNonNull(file, "file");
        this.loader = Objects.requireNonNull(loader, "loader");
        this.server = Objects.requireNonNull(server, "server");
        this.gateways = Objects.requireNonNull(gateways, "gateways");
        this.clock = Objects.requireNonNull(clock, "clock");
        // Read here, not on the configuration's thread: a file changed between the start and that thread's first
        // task would otherwise be taken for the text in force, and the watcher would never reload it. Tasks on the
        // thread are submitted after this write, so they see it.
        lastText = file.map(this::readQuietly).orElse(null);
    }

    public CurrentConfig current() {
        return current;
    }

    /**
     * Tells {@code listener} of each reload applied, the configuration before it and the one now in force,
     * once {@link #current()} holds the new one (on the configuration's thread).
     */
    public void afterReload(BiConsumer<MemogateConfig, MemogateConfig> listener) {
        applied.add(Objects.requireNonNull(listener, "listener"));
    }

    public Optional<Path> file() {
        return file;
    }

    public Statistics statistics() {
        return statistics;
    }

    /** Checks the file every {@code interval} and reloads it when its text changed; ZERO: never. */
    public void watch(Duration interval) {
        if (file.isEmpty() || interval.isZero()) {
            return;
        }
        long millis = Math.max(1, interval.toMillis());
        thread.scheduleWithFixedDelay(this::reloadIfChanged, millis, millis, TimeUnit.MILLISECONDS);
        log.info("watching {} for changes every {}", file.get(), Durations.format(interval));
    }

    /** Reloads the file now; {@code trigger} says who asked, for the log ("SIGHUP", "RELOAD by dba from ..."). */
    public CompletableFuture<ReloadOutcome> reload(String trigger) {
        return onThread(() -> reloadNow(trigger));
    }

    /**
     * Sets one tier setting in force, as the console's SET: the gateways are resized in place at once.
     * Completes with the value it replaced, or exceptionally with a {@link ConfigException} naming the field.
     */
    public CompletableFuture<String> set(TierField field, String value, String who) {
        return onThread(() -> {
            MemogateConfig before = current.get();
            MemogateConfig next = field.apply(before, value);
            gateways.accept(next.admission().gatewaySettings());
            current.set(next);
            String old = field.valueIn(before);
            log.info("setting changed by {}: {} = {} (was {}); not written to the configuration file, a reload or "
                    + "restart sets it from the file again", who, field.path(), field.valueIn(next), old);
            return old;
        });
    }

    private void reloadIfChanged() {
        Path path = file.orElseThrow();
        String text = readQuietly(path);
        if (!Objects.equals(text, lastText)) {
            reloadNow("the file changed");
        }
    }

    private ReloadOutcome reloadNow(String trigger) {
        if (file.isEmpty()) {
            return record(trigger, new ReloadOutcome.Refused("this proxy was started without a configuration file "
                    + "(bin/memogate demo builds its configuration in code): there is nothing to reload", List.of()));
        }
        Path path = file.get();
        String text;
        try {
            lastText = null; // a missing file is a change too, which the watcher must not report again
            text = loader.read(path);
            lastText = text;
        } catch (ConfigException e) {
            return record(trigger, new ReloadOutcome.Refused("the configuration file " + path
                    + " cannot be read; the running configuration stays", e.problems()));
        }
        MemogateConfig loaded;
        try {
            loaded = loader.parseFile(text, path);
        } catch (ConfigException e) {
            return record(trigger, new ReloadOutcome.Refused("the configuration file " + path
                    + " is not valid; the running configuration stays", e.problems()));
        }
        ReloadPlan plan;
        try {
            plan = ReloadPlan.between(current.get(), loaded);
        } catch (ConfigException e) {
            return record(trigger, new ReloadOutcome.Refused("the configuration file " + path + " is valid, but cannot "
                    + "be combined with the settings that only change on a restart; the running configuration stays",
                    e.problems()));
        }
        try {
            server.reconfigure(plan.next());
        } catch (RuntimeException e) {
            // A ConfigException names the field of a TLS file that does not load.
            List<String> problems = e instanceof ConfigException config ? config.problems()
                    : List.of(String.valueOf(e.getMessage()));
            return record(trigger, new ReloadOutcome.Refused("the configuration file " + path + " could not be "
                    + "applied; the running configuration stays", problems));
        }
        gateways.accept(plan.next().admission().gatewaySettings());
        MemogateConfig before = current.get();
        current.set(plan.next());
        for (BiConsumer<MemogateConfig, MemogateConfig> listener : applied) {
            listener.accept(before, plan.next());
        }
        return record(trigger, new ReloadOutcome.Applied(plan.changes()));
    }

    /** One log line per outcome (and one per change that waits for a restart), and the statistics. */
    private ReloadOutcome record(String trigger, ReloadOutcome outcome) {
        String source = file.map(Path::toString).orElse("(none)");
        String summary;
        switch (outcome) {
            case ReloadOutcome.Applied applied when applied.changes().isEmpty() -> {
                reloads++;
                summary = applied.summary();
                log.info("configuration reloaded: file={} trigger=\"{}\" unchanged", source, trigger);
            }
            case ReloadOutcome.Applied applied -> {
                reloads++;
                summary = applied.summary();
                log.info("configuration reloaded: file={} trigger=\"{}\" changes=[{}]", source, trigger,
                        String.join("; ", applied.changes().stream().map(ConfigChange::toString).toList()));
                applied.changes().stream().filter(change -> !change.applied()).forEach(change ->
                        log.warn("configuration change requires restart, not applied: {}: {}", change.key(),
                                change.transition()));
            }
            case ReloadOutcome.Refused refusal -> {
                refused++;
                summary = "refused";
                log.warn("configuration reload refused: file={} trigger=\"{}\": {}{}", source, trigger,
                        refusal.reason(), refusal.problems().stream().map(p -> "\n  " + p).reduce("", String::concat));
            }
        }
        statistics = new Statistics(reloads, refused, Optional.of(clock.get()), Optional.of(summary + " (" + trigger + ")"));
        return outcome;
    }

    private String readQuietly(Path path) {
        try {
            return loader.read(path);
        } catch (ConfigException e) {
            return null;
        }
    }

    private <T> CompletableFuture<T> onThread(Supplier<T> work) {
        try {
            return CompletableFuture.supplyAsync(work, thread);
        } catch (RejectedExecutionException e) {
            return CompletableFuture.failedFuture(new IllegalStateException("the proxy is stopping", e));
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
