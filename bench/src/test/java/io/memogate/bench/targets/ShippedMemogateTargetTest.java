package io.memogate.bench.targets;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.proxy.cli.DemoConfig;
import io.memogate.proxy.config.ConfigLoader;
import io.memogate.proxy.config.ConfigSettings;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.postgres.embedded.DemoSchema;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The file the shipped target runs bin/memogate with is the demo's configuration: every setting as the demo sets
 * it, but for the addresses (this machine's free ports, the bench server) and the console's user.
 */
class ShippedMemogateTargetTest {

    /** What only says where things are, and who the bench's login is. */
    private static final Set<String> ADDRESSES = Set.of("listeners[0].port", "backends[0].name", "backends[0].host",
            "backends[0].port", "admin.http.port", "admin.users");

    @Test
    void theConfigurationIsTheDemosButForTheAddresses() {
        Backend backend = new Backend("127.0.0.1", 54321, "pgbench", "memogate", "memogate");
        MemogateConfig shipped = shipped(TargetKind.MEMOGATE_SHIPPED, backend);
        MemogateConfig demo = DemoConfig.of("127.0.0.1", 54321, 6432, 9930, Optional.empty());

        assertThat(settings(shipped)).isEqualTo(settings(demo));
        assertThat(shipped.admission().enabled()).isTrue();
        assertThat(shipped.broker().monitor()).isPresent();
        assertThat(shipped.broker().coLocated()).isTrue();
        assertThat(shipped.admin().http().enabled()).isTrue();
        assertThat(shipped.listeners().getFirst().port()).isEqualTo(16432);
        assertThat(shipped.admin().http().port()).isEqualTo(19930);
        assertThat(shipped.backends().getFirst().port()).isEqualTo(54321);
    }

    @Test
    void theOneLoopVariantDiffersInItsEventLoopsOnly() {
        Backend backend = new Backend("127.0.0.1", 54321, "pgbench", "memogate", "memogate");
        MemogateConfig shipped = shipped(TargetKind.MEMOGATE_SHIPPED, backend);
        MemogateConfig oneLoop = shipped(TargetKind.MEMOGATE_SHIPPED_ONE_LOOP, backend);

        assertThat(oneLoop.network().eventLoops()).isEqualTo(1);
        assertThat(but(oneLoop, "network.eventLoops")).isEqualTo(but(shipped, "network.eventLoops"));
    }

    @Test
    void theUngatedVariantDiffersInItsAdmissionOnly() {
        Backend backend = new Backend("127.0.0.1", 54321, "pgbench", "memogate", "memogate");
        MemogateConfig shipped = shipped(TargetKind.MEMOGATE_SHIPPED, backend);
        MemogateConfig ungated = shipped(TargetKind.MEMOGATE_SHIPPED_UNGATED, backend);

        assertThat(ungated.admission().enabled()).isFalse();
        assertThat(ungated.broker().monitor()).isPresent();
        assertThat(but(ungated, "admission.enabled")).isEqualTo(but(shipped, "admission.enabled"));
    }

    private static List<ConfigSettings.Setting> but(MemogateConfig config, String key) {
        return settings(config).stream().filter(setting -> !setting.key().equals(key)).toList();
    }

    private static MemogateConfig shipped(TargetKind kind, Backend backend) {
        return new ConfigLoader().parse(ShippedMemogateTarget.config(kind, backend,
                new ShippedMemogateTarget.Login(DemoSchema.MONITOR, DemoSchema.MONITOR_PASSWORD), 16432, 19930),
                Path.of("/tmp"));
    }

    private static List<ConfigSettings.Setting> settings(MemogateConfig config) {
        return ConfigSettings.of(config).stream().filter(setting -> !ADDRESSES.contains(setting.key())).toList();
    }
}
