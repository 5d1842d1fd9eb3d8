package io.memogate.proxy.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.broker.redis.FleetSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fleet section: absent, the gateways are the proxy's own; present, they are shared through its Redis. */
class FleetConfigTest {

    private static final String BACKEND = "backends:\n  - {name: main, host: localhost}\n";

    private final ConfigLoader loader = new ConfigLoader();

    @TempDir
    Path dir;

    @Test
    void withoutAFleetTheGatewaysAreThisProxysOwn() {
        assertThat(loader.parse(BACKEND, dir).fleet()).isEmpty();
    }

    @Test
    void aFleetNamesItsRedisAndItsNameAndMayTuneTheLease() {
        assertThat(loader.parse(BACKEND + "fleet: {redis: 'redis://cache.internal:6379', name: prod}\n", dir).fleet())
                .contains(new FleetSettings("redis://cache.internal:6379", "prod", FleetSettings.DEFAULT_LEASE,
                        FleetSettings.DEFAULT_POLL_INTERVAL));
        assertThat(loader.parse(BACKEND + "fleet: {redis: 'redis://r:6379', name: prod, lease: 5s, pollInterval: 50ms}\n",
                dir).fleet()).contains(new FleetSettings("redis://r:6379", "prod", Duration.ofSeconds(5),
                        Duration.ofMillis(50)));
    }

    @Test
    void aMistakeIsReportedWithTheRestNamingTheField() {
        assertThatThrownBy(() -> loader.parse(BACKEND + "fleet: {redis: 'cache:6379', name: prod}\n", dir))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems())
                        .containsExactly("fleet.redis must be a redis:// or rediss:// URI, was 'cache:6379'"));
        assertThatThrownBy(() -> loader.parse(BACKEND + "fleet: {redis: 'redis://r:6379'}\n", dir))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems()).singleElement()
                        .asString().startsWith("fleet needs one of redis (redis://host:port) or sentinel"));
        assertThatThrownBy(() -> loader.parse(BACKEND + "fleet: {redis: 'redis://r:6379', sentinel:"
                + " 'redis-sentinel://s:26379#main', name: prod}\n", dir))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems()).singleElement()
                        .asString().startsWith("fleet needs one of redis"));
        assertThatThrownBy(() -> loader.parse(BACKEND + "fleet: {sentinel: 'redis://s:26379', name: prod}\n", dir))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems()).singleElement()
                        .asString().startsWith("fleet.sentinel must be a redis-sentinel:// URI"));
        assertThatThrownBy(() -> loader.parse(BACKEND + "fleet: {sentinel: 'redis-sentinel://s:26379', name: prod}\n",
                dir)).isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems()).singleElement()
                        .asString().startsWith("fleet.sentinel must name the primary the Sentinels watch after '#'"));
    }

    @Test
    void aFleetMayNameTheSentinelsThatWatchItsRedis() {
        MemogateConfig config = loader.parse(BACKEND
                + "fleet: {sentinel: 'redis-sentinel://s1:26379,s2:26379#gateways', name: prod}\n", dir);
        assertThat(config.fleet()).contains(new FleetSettings("redis-sentinel://s1:26379,s2:26379#gateways", "prod"));
        assertThat(ConfigSettings.of(config)).filteredOn(s -> s.key().startsWith("fleet.")).first()
                .satisfies(s -> assertThat(s.key() + "=" + s.value())
                        .isEqualTo("fleet.sentinel=redis-sentinel://s1:26379,s2:26379#gateways"));
    }

    @Test
    void theFleetIsListedAmongTheSettingsWithoutTheRedisPassword() {
        MemogateConfig config = loader.parse(BACKEND + "fleet: {redis: 'redis://:s3cret@r:6379/2', name: prod}\n", dir);
        assertThat(ConfigSettings.of(config)).filteredOn(s -> s.key().startsWith("fleet."))
                .extracting(s -> s.key() + "=" + s.value() + " (" + s.applies() + ")")
                .containsExactly("fleet.redis=redis://********@r:6379/2 (RESTART)", "fleet.name=prod (RESTART)",
                        "fleet.lease=10s (RESTART)", "fleet.pollInterval=100ms (RESTART)");
        assertThat(ConfigSettings.of(loader.parse(BACKEND, dir))).noneMatch(s -> s.key().startsWith("fleet."));
    }

    @Test
    void aConfigurationBuiltInCodeHasNoFleetUnlessGivenOne() {
        MemogateConfig config = MemogateConfig.of(new BackendConfig("main", "localhost", 5432, java.util.List.of(), true,
                BackendTlsConfig.DEFAULT));
        assertThat(config.fleet()).isEmpty();
        FleetSettings fleet = new FleetSettings("redis://r:6379", "prod");
        assertThat(config.withFleet(Optional.of(fleet)).withLimits(LimitsConfig.DEFAULTS).fleet()).contains(fleet);
    }
}
