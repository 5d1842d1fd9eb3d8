package io.memogate.estimator.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OptimizerSettingsTest {

    private static final OptimizerSettings DEFAULTS = OptimizerSettings.MARIADB_DEFAULTS;

    @Test
    void numbersAreClampedAsTheServerClampsThemAndRefusedValuesChangeNothing() {
        assertThat(DEFAULTS.with("optimizer_search_depth", "100").searchDepth()).isEqualTo(62);
        assertThat(DEFAULTS.with("OPTIMIZER_PRUNE_LEVEL", "0").pruneLevel()).isZero();
        assertThat(DEFAULTS.with("optimizer_prune_level", "off")).isEqualTo(DEFAULTS);
        assertThat(DEFAULTS.with("sort_buffer_size", "1")).isEqualTo(DEFAULTS);
    }

    @Test
    void optimizerSwitchChangesTheFlagsItNamesOnly() {
        OptimizerSettings off = DEFAULTS.with("optimizer_switch", "semijoin=off,derived_merge=off");
        assertThat(off.switchOn("semijoin", true)).isFalse();
        OptimizerSettings back = off.with("optimizer_switch", "semijoin=default");
        assertThat(back.switchOn("semijoin", true)).isTrue();
        assertThat(back.switchOn("derived_merge", true)).isFalse();
        assertThat(back.with("optimizer_switch", "default")).isEqualTo(DEFAULTS);
        assertThat(off.with("optimizer_switch", "semijoin=maybe")).isEqualTo(off);
    }

    @Test
    void depthZeroLetsTheServerChoose() {
        OptimizerSettings automatic = DEFAULTS.with("optimizer_search_depth", "0");
        assertThat(automatic.depthFor(5)).isEqualTo(6);
        assertThat(automatic.depthFor(12)).isEqualTo(7);
        assertThat(DEFAULTS.depthFor(12)).isEqualTo(62);
    }
}
