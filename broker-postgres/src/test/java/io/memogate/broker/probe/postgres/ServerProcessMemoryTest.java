package io.memogate.broker.probe.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * The broker reads /proc for every server process but the backends that have only waited for their client since
 * the last read, and still reports their memory.
 */
class ServerProcessMemoryTest {

    private static final int CHECKPOINTER = 10;
    private static final int IDLE = 20;
    private static final int ACTIVE = 30;

    private final ServerProcessMemory memory = new ServerProcessMemory();
    private final Map<Integer, Long> bytesByPid = new HashMap<>(Map.of(CHECKPOINTER, 1_000L, IDLE, 2_000L,
            ACTIVE, 3_000L));
    private final List<Integer> reads = new ArrayList<>();

    private Map<Integer, Long> poll(Map<Integer, Long> idleSince) throws Exception {
        reads.clear();
        Activity activity = new Activity(List.of(IDLE, ACTIVE), 1, List.of(CHECKPOINTER, IDLE, ACTIVE), idleSince);
        return memory.read(activity, pid -> {
            reads.add(pid);
            Long bytes = bytesByPid.get(pid);
            return bytes == null ? OptionalLong.empty() : OptionalLong.of(bytes);
        });
    }

    @Test
    void aBackendIdleSinceTheLastReadIsNotReadAgainAndKeepsItsMemory() throws Exception {
        assertThat(poll(Map.of(IDLE, 500L))).containsOnly(Map.entry(CHECKPOINTER, 1_000L), Map.entry(IDLE, 2_000L),
                Map.entry(ACTIVE, 3_000L));
        assertThat(reads).containsExactly(CHECKPOINTER, IDLE, ACTIVE);

        bytesByPid.put(ACTIVE, 3_500L);
        assertThat(poll(Map.of(IDLE, 500L))).containsOnly(Map.entry(CHECKPOINTER, 1_000L), Map.entry(IDLE, 2_000L),
                Map.entry(ACTIVE, 3_500L));
        assertThat(reads).containsExactly(CHECKPOINTER, ACTIVE);
    }

    @Test
    void aBackendThatRanSomethingSinceTheLastReadIsReadAgain() throws Exception {
        poll(Map.of(IDLE, 500L));
        bytesByPid.put(IDLE, 9_000L);

        assertThat(poll(Map.of(IDLE, 700L))).containsEntry(IDLE, 9_000L);
        assertThat(reads).contains(IDLE);
    }

    @Test
    void aBackendReadWhileRunningIsReadAgainOnceIdle() throws Exception {
        poll(Map.of());
        bytesByPid.put(IDLE, 9_000L);

        assertThat(poll(Map.of(IDLE, 500L))).containsEntry(IDLE, 9_000L);
        assertThat(reads).contains(IDLE);
    }

    @Test
    void everyProcessIsReadAgainAfterAFullRound() throws Exception {
        poll(Map.of(IDLE, 500L));
        for (int i = 1; i < ServerProcessMemory.FULL_READ_EVERY; i++) {
            poll(Map.of(IDLE, 500L));
            assertThat(reads).doesNotContain(IDLE);
        }
        bytesByPid.put(IDLE, 2_100L);

        assertThat(poll(Map.of(IDLE, 500L))).containsEntry(IDLE, 2_100L);
        assertThat(reads).containsExactly(CHECKPOINTER, IDLE, ACTIVE);
    }

    @Test
    void aProcessThatIsGoneIsLeftOutAndItsPidReadAfreshWhenReused() throws Exception {
        poll(Map.of(IDLE, 500L));
        bytesByPid.remove(IDLE);
        assertThat(poll(Map.of())).doesNotContainKey(IDLE);

        bytesByPid.put(IDLE, 4_000L);
        assertThat(poll(Map.of(IDLE, 500L))).containsEntry(IDLE, 4_000L);
        assertThat(reads).contains(IDLE);
    }
}
