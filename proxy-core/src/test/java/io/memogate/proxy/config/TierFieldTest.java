package io.memogate.proxy.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.broker.gateway.Tier;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The console's SET: one tier setting, checked as the file's is, applied to a copy of the configuration. */
class TierFieldTest {

    private final MemogateConfig config = MemogateConfig.of(new BackendConfig("main", "localhost", 5432,
            List.of(), true, BackendTlsConfig.DEFAULT)).withAdmission(AdmissionConfig.defaults(4));

    @Test
    void namesEveryTierSettingTheFileHasButLargeFraction() {
        assertThat(TierField.parse("tiers.small.limit")).contains(new TierField(Tier.SMALL, "limit"));
        assertThat(TierField.parse("admission.tiers.MEDIUM.maxqueue")).contains(new TierField(Tier.MEDIUM, "maxQueue"));
        assertThat(TierField.parse("tiers.large.fraction")).isEmpty();
        assertThat(TierField.parse("tiers.huge.limit")).isEmpty();
        assertThat(TierField.parse("limits.maxClientConnections")).isEmpty();
        assertThat(TierField.paths()).hasSize(11).contains("tiers.large.timeout").doesNotContain("tiers.large.fraction");
    }

    @Test
    void appliesAValueWrittenAsInTheFile() {
        MemogateConfig changed = new TierField(Tier.MEDIUM, "timeout").apply(config, "90s");
        assertThat(changed.admission().gatewaySettings().medium().timeout()).isEqualTo(Duration.ofSeconds(90));
        assertThat(changed.admission().gatewaySettings().medium().limit()).isEqualTo(4);
        assertThat(new TierField(Tier.SMALL, "fraction").apply(config, ".125").admission().gatewaySettings().small()
                .fraction()).isEqualTo(0.125);
        assertThat(new TierField(Tier.SMALL, "limit").valueIn(config)).isEqualTo("16");
        assertThat(new TierField(Tier.LARGE, "timeout").valueIn(config)).isEqualTo("8min");
        assertThat(config.admission().gatewaySettings().medium().timeout()).as("the original is untouched")
                .isEqualTo(Duration.ofMinutes(4));
    }

    @Test
    void refusesWhatTheFileWouldRefuseNamingTheField() {
        assertThatThrownBy(() -> new TierField(Tier.SMALL, "limit").apply(config, "0"))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems())
                        .containsExactly("admission.tiers.small.limit must be at least 1, was 0"));
        assertThatThrownBy(() -> new TierField(Tier.SMALL, "fraction").apply(config, "1.5"))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems())
                        .containsExactly("admission.tiers.small.fraction must be in (0, 1], was 1.5"));
        assertThatThrownBy(() -> new TierField(Tier.LARGE, "maxQueue").apply(config, "many"))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems())
                        .containsExactly("admission.tiers.large.maxQueue must be a whole number, was 'many'"));
        assertThatThrownBy(() -> new TierField(Tier.MEDIUM, "timeout").apply(config, "0"))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems())
                        .containsExactly("admission.tiers.medium.timeout must be positive, was 0s"));
    }
}
