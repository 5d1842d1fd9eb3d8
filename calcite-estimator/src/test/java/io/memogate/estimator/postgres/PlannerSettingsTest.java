package io.memogate.estimator.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PlannerSettingsTest {

    private final PlannerSettings defaults = PlannerSettings.DEFAULTS;

    @Test
    void defaultsArePostgres() {
        assertThat(defaults).isEqualTo(new PlannerSettings(8, 8, true, 12, 5, 0, 0));
    }

    @ParameterizedTest
    @CsvSource(quoteCharacter = '"', value = {
        "on, true", "ON, true", "true, true", "t, true", "tr, true", "yes, true", "y, true", "1, true",
        "off, false", "of, false", "false, false", "f, false", "no, false", "n, false", "0, false",
        "'off', false", "'Yes', true"})
    void geqoIsReadAsPostgresReadsBooleans(String value, boolean expected) {
        PlannerSettings start = expected ? defaults.with("geqo", "off") : defaults;
        assertThat(start.with("geqo", value).geqo()).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource(quoteCharacter = '"', value = {"o", "onn", "2", "tru e", "''", "enable", "' on '"})
    void anUnreadableBooleanKeepsTheOldValue(String value) {
        assertThat(defaults.with("geqo", value)).isSameAs(defaults);
    }

    @ParameterizedTest
    @CsvSource(quoteCharacter = '"', value = {
        "20, 20", "'20', 20", "' 20 ', 20", "+3, 3", "0x10, 16", "010, 8", "7.5, 8", "8.5, 8", "1e1, 10",
        "2147483647, 2147483647"})
    void limitsAreReadAsPostgresReadsIntegers(String value, int expected) {
        assertThat(defaults.with("join_collapse_limit", value).joinCollapseLimit()).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource(quoteCharacter = '"', value = {
        "join_collapse_limit, 0", "from_collapse_limit, -1", "geqo_threshold, 1", "geqo_effort, 11",
        "geqo_effort, 0", "geqo_pool_size, -1", "geqo_generations, -5", "join_collapse_limit, 08",
        "join_collapse_limit, 2147483648", "join_collapse_limit, eight", "join_collapse_limit, 8kB",
        "join_collapse_limit, NaN", "join_collapse_limit, ''"})
    void aValuePostgresRejectsKeepsTheOldSettings(String name, String value) {
        assertThat(defaults.with(name, value)).isSameAs(defaults);
        assertThat(PlannerSettings.accepts(name, value)).as("accepts %s = %s", name, value).isFalse();
    }

    @ParameterizedTest
    @CsvSource(quoteCharacter = '"', value = {
        "join_collapse_limit, 1", "JOIN_COLLAPSE_LIMIT, '20'", "from_collapse_limit, 0x10", "geqo_threshold, 2",
        "geqo_effort, 10", "geqo_pool_size, 0", "geqo_generations, 7.5", "geqo, 'Off'", "geqo, DEFAULT",
        "join_collapse_limit, 8"})
    void aValuePostgresTakesIsAccepted(String name, String value) {
        assertThat(PlannerSettings.accepts(name, value)).as("accepts %s = %s", name, value).isTrue();
    }

    @Test
    void aSettingNotModelledIsNotAccepted() {
        assertThat(PlannerSettings.accepts("work_mem", "64MB")).isFalse();
    }

    @Test
    void namesAreCaseInsensitiveAndUnknownOnesAreIgnored() {
        assertThat(defaults.with("  From_Collapse_Limit ", "3").fromCollapseLimit()).isEqualTo(3);
        assertThat(defaults.with("work_mem", "64MB")).isSameAs(defaults);
        assertThat(defaults.with("geqo_seed", "0.5")).isSameAs(defaults);
    }

    @Test
    void everySettingCanBeSetAndReset() {
        PlannerSettings changed = defaults.with("join_collapse_limit", "1").with("from_collapse_limit", "30")
                .with("geqo", "off").with("geqo_threshold", "20").with("geqo_effort", "10")
                .with("geqo_pool_size", "100").with("geqo_generations", "7");
        assertThat(changed).isEqualTo(new PlannerSettings(1, 30, false, 20, 10, 100, 7));
        PlannerSettings reset = changed;
        for (String name : new String[] {"join_collapse_limit", "from_collapse_limit", "geqo", "geqo_threshold",
                "geqo_effort", "geqo_pool_size", "geqo_generations"}) {
            reset = reset.with(name, "DEFAULT");
        }
        assertThat(reset).isEqualTo(defaults);
        assertThat(changed.with("geqo", "default").geqo()).isTrue();
        PlannerSettings noMemoize = defaults.with("enable_memoize", "off");
        assertThat(noMemoize.memoize()).isFalse();
        assertThat(noMemoize.with("Enable_Memoize", "DEFAULT")).isEqualTo(defaults);
        assertThat(defaults.with("enable_memoize", "maybe")).as("refused by PostgreSQL").isSameAs(defaults);
    }

    @Test
    void geqoPoolAndGenerationsFollowGeqoMain() {
        // 2^(n+1) kept within [10, 50] x geqo_effort
        assertThat(defaults.geqoPoolSizeFor(2)).isEqualTo(50);
        assertThat(defaults.geqoPoolSizeFor(5)).isEqualTo(64);
        assertThat(defaults.geqoPoolSizeFor(7)).isEqualTo(250);
        assertThat(defaults.geqoPoolSizeFor(40)).isEqualTo(250);
        assertThat(defaults.with("geqo_effort", "1").geqoPoolSizeFor(12)).isEqualTo(50);
        assertThat(defaults.with("geqo_effort", "10").geqoPoolSizeFor(12)).isEqualTo(500);
        // a pool size of 1 is not legal and is ignored, as in gimme_pool_size
        assertThat(defaults.with("geqo_pool_size", "1").geqoPoolSizeFor(12)).isEqualTo(250);
        assertThat(defaults.with("geqo_pool_size", "30").geqoPoolSizeFor(12)).isEqualTo(30);
        assertThat(defaults.geqoGenerationsFor(250)).isEqualTo(250);
        assertThat(defaults.with("geqo_generations", "40").geqoGenerationsFor(250)).isEqualTo(40);
    }

    @Test
    void constructionNamesTheFieldOutOfRange() {
        assertThatThrownBy(() -> new PlannerSettings(8, 8, true, 12, 11, 0, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("geqoEffort must be in 1..10, was 11");
    }
}
