package io.memogate.proxy.reload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.broker.gateway.GatewayListener;
import io.memogate.broker.gateway.GatewayRejectedException;
import io.memogate.broker.gateway.Gateways;
import io.memogate.broker.gateway.ScheduledGatewayTimer;
import io.memogate.broker.gateway.Tier;
import io.memogate.proxy.config.ConfigException;
import io.memogate.proxy.config.ConfigLoader;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.config.TierField;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
        return new Gateways(config.admission().gatewaySettings(), 1L << 30, System::nanoTime, timer, QUIET);
    }

    @Test
    void aValidFileResizesTheGatewaysAndReachesTheServer() throws Exception {
        Path file = file(2);
        MemogateConfig initial = loader.load(file);
        Gateways gateways = gateways(initial);
        reloader = new ConfigReloader(new CurrentConfig(initial), Optional.of(file), loader, serverGot::add,
                Optional.of(gateways), Instant::now);
        file(5);

        ReloadOutcome outcome = reloader.reload("test").get(10, TimeUnit.SECONDS);

        assertThat(outcome).isInstanceOfSatisfying(ReloadOutcome.Applied.class, applied -> assertThat(applied.changes())
                .extracting(ConfigChange::toString).containsExactly("admission.tiers.small.limit: 2 -> 5 (live)"));
        assertThat(gateways.state(Tier.SMALL).limit()).isEqualTo(5);
        assertThat(reloader.current().get().admission().gatewaySettings().small().limit()).isEqualTo(5);
        assertThat(serverGot).containsExactly(reloader.current().get());
        assertThat(reloader.statistics().reloads()).isEqualTo(1);
        assertThat(reloader.statistics().lastOutcome()).contains("1 changes, 0 need a restart (test)");
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
