package io.memogate.proxy.reload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.memogate.broker.gateway.GatewayListener;
import io.memogate.broker.gateway.GatewayRejectedException;
import io.memogate.broker.gateway.Gateways;
import io.memogate.broker.gateway.LocalGateways;
import io.memogate.broker.gateway.ScheduledGatewayTimer;
import io.memogate.broker.gateway.Tier;
import io.memogate.proxy.config.ConfigException;
import io.memogate.proxy.config.ConfigLoader;
import io.memogate.proxy.config.ConfigSettings.Applies;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.config.TierField;
import io.memogate.proxy.testing.Await;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** Reloads and SETs, without a network: the configuration in force, the gateways, and the server's part. */
class ConfigReloaderTest {

    private static final GatewayListener QUIET = new GatewayListener() {
        @Override
        public void admitted(Tier highestOrNull, long waitedNanos, long estimateBytes) {
        }

        @Override
        public void rejected(Tier tier, GatewayRejectedException.Reason reason, long waitedNanos, long estimateBytes) {
        }
    };

    @TempDir
    Path dir;

    private final ConfigLoader loader = new ConfigLoader();
    private final List<MemogateConfig> serverGot = new ArrayList<>();
    private final ScheduledGatewayTimer timer = new ScheduledGatewayTimer();
    private ConfigReloader reloader;

    @AfterEach
    void close() {
        if (reloader != null) {
            reloader.close();
        }
        timer.close();
    }

    private Path file(int smallLimit) throws IOException {
        return Files.writeString(dir.resolve("memogate.yaml"), """
                backends: [{name: main, host: localhost}]
                admission: {cpus: 2, tiers: {small: {limit: %d}}}
                """.formatted(smallLimit));
    }

    private Gateways gateways(MemogateConfig config) {
        return new LocalGateways(config.admission().gatewaySettings(), 1L << 30, System::nanoTime, timer, QUIET);
    }

    /** A reloader started from a file with a SMALL limit of 2, which then says 5; its gateways. */
    private Gateways startedWithSmallLimit2ThenFileSays5() throws IOException {
        Path file = file(2);
        MemogateConfig initial = loader.load(file);
        Gateways gateways = gateways(initial);
        reloader = new ConfigReloader(new CurrentConfig(initial), Optional.of(file), loader, serverGot::add,
                Optional.of(gateways), Instant::now);
        file(5);
        return gateways;
    }

    @Test
    void aValidFileResizesTheGatewaysAndReachesTheServer() throws Exception {
        Gateways gateways = startedWithSmallLimit2ThenFileSays5();

        ReloadOutcome outcome = reloader.reload("test").get(10, TimeUnit.SECONDS);

        assertThat(outcome).isInstanceOfSatisfying(ReloadOutcome.Applied.class, applied -> assertThat(applied.changes())
                .extracting(ConfigChange::toString).containsExactly("admission.tiers.small.limit: 2 -> 5 (live)"));
        assertThat(gateways.state(Tier.SMALL).limit()).isEqualTo(5);
        assertThat(reloader.current().get().admission().gatewaySettings().small().limit()).isEqualTo(5);
        assertThat(serverGot).containsExactly(reloader.current().get());
        assertThat(reloader.statistics().reloads()).isEqualTo(1);
        assertThat(reloader.statistics().lastOutcome()).contains("1 setting changed, none needs a restart (test)");
    }

    @Test
    void aFileChangedRightAfterTheStartIsReloadedByTheWatcher() throws Exception {
        Gateways gateways = startedWithSmallLimit2ThenFileSays5();

        reloader.watch(Duration.ofMillis(20));

        Await.until("the watcher reloads the changed file", () -> reloader.statistics().reloads() == 1);
        assertThat(gateways.state(Tier.SMALL).limit()).isEqualTo(5);
        assertThat(reloader.statistics().lastOutcome())
                .contains("1 setting changed, none needs a restart (the file changed)");
    }

    /**
     * The warning for a change that waits for a restart shows its values as the info line does: a
     * password set where there was none is "(unset) -> ********", not ": -> ********".
     */
    @Test
    void aChangeThatNeedsARestartIsLoggedAsTheSummarySaysIt() throws Exception {
        Path file = Files.writeString(dir.resolve("memogate.yaml"), """
                backends: [{name: main, host: localhost}]
                broker: {monitor: {user: watcher}}
                """);
        MemogateConfig initial = loader.load(file);
        reloader = new ConfigReloader(new CurrentConfig(initial), Optional.of(file), loader, serverGot::add,
                Optional.empty(), Instant::now);
        Files.writeString(file, """
                backends: [{name: main, host: localhost}]
                broker: {monitor: {user: watcher, password: secret}}
                """);
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        Logger logger = (Logger) LoggerFactory.getLogger(ConfigReloader.class);
        log.start();
        logger.addAppender(log);
        try {
            reloader.reload("test").get(10, TimeUnit.SECONDS);
        } finally {
            logger.detachAppender(log);
        }

        assertThat(log.list).filteredOn(e -> e.getLevel() == Level.WARN).extracting(ILoggingEvent::getFormattedMessage)
                .containsExactly("configuration change requires restart, not applied: broker.monitor.password: "
                        + "(unset) -> ********");
        assertThat(reloader.statistics().lastOutcome()).contains("1 setting changed, 1 needs a restart (test)");
    }

    @Test
    void aSummaryCountsInWords() {
        ConfigChange live = new ConfigChange("admin.users", "a", "b", Applies.LIVE, true);
        ConfigChange restart = new ConfigChange("network.eventLoops", "1", "2", Applies.RESTART, false);

        assertThat(new ReloadOutcome.Applied(List.of()).summary()).isEqualTo("unchanged");
        assertThat(new ReloadOutcome.Applied(List.of(restart)).summary()).isEqualTo("1 setting changed, 1 needs a restart");
        assertThat(new ReloadOutcome.Applied(List.of(live, restart, restart)).summary())
                .isEqualTo("3 settings changed, 2 need a restart");
    }

    @Test
    void whenTheServerCannotTakeItNothingChanges() throws Exception {
        Path file = file(2);
        MemogateConfig initial = loader.load(file);
        Gateways gateways = gateways(initial);
        reloader = new ConfigReloader(new CurrentConfig(initial), Optional.of(file), loader, next -> {
            throw new IllegalArgumentException("listeners[0].tls.certificate: not a PEM certificate");
        }, Optional.of(gateways), Instant::now);
        file(5);

        ReloadOutcome outcome = reloader.reload("test").get(10, TimeUnit.SECONDS);

        assertThat(outcome).isInstanceOfSatisfying(ReloadOutcome.Refused.class, refused -> {
            assertThat(refused.reason()).endsWith("could not be applied; the running configuration stays");
            assertThat(refused.problems()).containsExactly("listeners[0].tls.certificate: not a PEM certificate");
        });
        assertThat(gateways.state(Tier.SMALL).limit()).isEqualTo(2);
        assertThat(reloader.current().get()).isEqualTo(initial);
    }

    @Test
    void withoutAFileThereIsNothingToReload() throws Exception {
        MemogateConfig initial = loader.load(file(2));
        reloader = new ConfigReloader(new CurrentConfig(initial), Optional.empty(), loader, serverGot::add,
                Optional.empty(), Instant::now);

        assertThat(reloader.reload("RELOAD").get(10, TimeUnit.SECONDS))
                .isInstanceOfSatisfying(ReloadOutcome.Refused.class, refused -> assertThat(refused.reason())
                        .startsWith("this proxy was started without a configuration file"));
        assertThat(serverGot).isEmpty();
    }

    @Test
    void setChangesOneTierSettingInForceAndNotTheFile() throws Exception {
        Path file = file(2);
        MemogateConfig initial = loader.load(file);
        Gateways gateways = gateways(initial);
        reloader = new ConfigReloader(new CurrentConfig(initial), Optional.of(file), loader, serverGot::add,
                Optional.of(gateways), Instant::now);
        String before = Files.readString(file);

        assertThat(reloader.set(TierField.parse("tiers.small.limit").orElseThrow(), "7", "dba").get(10, TimeUnit.SECONDS))
                .isEqualTo("2");

        assertThat(gateways.state(Tier.SMALL).limit()).isEqualTo(7);
        assertThat(reloader.current().get().admission().gatewaySettings().small().limit()).isEqualTo(7);
        assertThat(Files.readString(file)).isEqualTo(before);
        assertThat(serverGot).as("a gateway setting is nothing to the server").isEmpty();
        assertThatThrownBy(() -> reloader.set(TierField.parse("tiers.small.limit").orElseThrow(), "-1", "dba").join())
                .isInstanceOf(CompletionException.class).hasCauseInstanceOf(ConfigException.class);
        // The next reload takes the file's value again.
        assertThat(reloader.reload("test").get(10, TimeUnit.SECONDS)).isInstanceOfSatisfying(ReloadOutcome.Applied.class,
                applied -> assertThat(applied.changes()).extracting(ConfigChange::toString)
                        .containsExactly("admission.tiers.small.limit: 7 -> 2 (live)"));
        assertThat(gateways.state(Tier.SMALL).limit()).isEqualTo(2);
    }
}
