package io.memogate.proxy.mysql.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What the drivers send to cancel is read as a KILL QUERY of a thread; nothing else is. */
class KillTargetsTest {

    @Test
    void theDriversCancelNamesAThread() {
        assertThat(KillTargets.killedThread("KILL QUERY 42")).contains(42L);
        assertThat(KillTargets.killedThread("  kill query 7 ;")).contains(7L);
        assertThat(KillTargets.killedThread("KILL HARD QUERY 9")).contains(9L);
    }

    @Test
    void otherKillsAreNot() {
        assertThat(KillTargets.killedThread("KILL 42")).isEqualTo(Optional.empty());
        assertThat(KillTargets.killedThread("KILL CONNECTION 42")).isEmpty();
        assertThat(KillTargets.killedThread("KILL QUERY ID 42")).isEmpty();
        assertThat(KillTargets.killedThread("SELECT 'KILL QUERY 42'")).isEmpty();
    }

    @Test
    void onlyATextStartingWithKillIsDecoded() {
        assertThat(KillTargets.mayBeKill(Unpooled.copiedBuffer("\u0003 kill query 1", StandardCharsets.US_ASCII))).isTrue();
        assertThat(KillTargets.mayBeKill(Unpooled.copiedBuffer("\u0003SELECT 1", StandardCharsets.US_ASCII))).isFalse();
        assertThat(KillTargets.mayBeKill(Unpooled.copiedBuffer("\u0003", StandardCharsets.US_ASCII))).isFalse();
    }
}
