package io.memogate.proxy.pg.admission;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StartupOptionsTest {

    @Test
    void readsTheFormsPostgresAccepts() {
        assertThat(StartupOptions.parse("-c geqo=off -cjoin_collapse_limit=20 --from-collapse-limit=12"))
                .containsExactly(java.util.Map.entry("geqo", "off"), java.util.Map.entry("join_collapse_limit", "20"),
                        java.util.Map.entry("from_collapse_limit", "12"));
    }

    @Test
    void backslashEscapesWhitespaceAndOtherSwitchesAreIgnored() {
        assertThat(StartupOptions.parse("-B 64 -c search_path=a\\ b  -c"))
                .containsExactly(java.util.Map.entry("search_path", "a b"));
    }
}
