package io.memogate.bench.accuracy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The profiles {@code --profiles} names plan and estimate under the settings the report says they have. */
class ProfileTest {

    @Test
    void theMemoizeProfilesTurnMemoizeOffAndKeepTheirCollapseLimits() {
        assertThat(Profile.named("no-memoize").plannerSettings().memoize()).isFalse();
        assertThat(Profile.named("no-memoize").plannerSettings().joinCollapseLimit()).isEqualTo(8);
        assertThat(Profile.named("wide-no-memoize").plannerSettings().memoize()).isFalse();
        assertThat(Profile.named("wide-no-memoize").plannerSettings().joinCollapseLimit()).isEqualTo(20);
        assertThat(Profile.named("wide").plannerSettings().memoize()).isTrue();
    }

    @Test
    void anUnknownProfileIsRefusedWithTheNamesThereAre() {
        assertThatThrownBy(() -> Profile.named("narrow")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown profile narrow (default, wide, no-memoize, wide-no-memoize)");
    }
}
