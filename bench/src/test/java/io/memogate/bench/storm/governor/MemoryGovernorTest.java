package io.memogate.bench.storm.governor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class MemoryGovernorTest {

    private static final long MB = 1L << 20;
    private static final long POSTMASTER = 100;

    /** A server whose processes and their memory the test sets; kills are recorded, not sent. */
    private static final class FakeServer implements ProcessTable {
        final Map<Long, Long> memory = new LinkedHashMap<>();
        final List<Long> killed = new ArrayList<>();

        @Override
        public List<Long> children(long pid) {
            return memory.keySet().stream().filter(p -> pid == POSTMASTER && p != POSTMASTER).toList();
        }

        @Override
        public OptionalLong privateBytes(long pid) {
            Long bytes = memory.get(pid);
            return bytes == null ? OptionalLong.empty() : OptionalLong.of(bytes);
        }

        @Override
        public void kill(long pid) {
            killed.add(pid);
        }
    }

    private long now;
    private final FakeServer server = new FakeServer();
    private final MemoryGovernor governor =
            new MemoryGovernor(server, POSTMASTER, 1000 * MB, Duration.ofMillis(25), () -> now);

    @Test
    void aServerWithinTheHostIsOnlyWatched() {
        server.memory.put(POSTMASTER, 20 * MB);
        server.memory.put(201L, 400 * MB);
        server.memory.put(202L, 580 * MB);

        governor.sample();

        assertThat(server.killed).isEmpty();
        assertThat(governor.trace().peak(0, 1)).isEqualTo(1000 * MB);
    }

    @Test
    void overTheHostTheLargestBackendIsKilled() {
        server.memory.put(POSTMASTER, 20 * MB);
        server.memory.put(201L, 400 * MB);
        server.memory.put(202L, 590 * MB);
        now = 5;

        governor.sample();

        assertThat(server.killed).containsExactly(202L);
        assertThat(governor.kills()).containsExactly(new Kill(5, 202, 590 * MB, 1010 * MB));
    }

    @Test
    void theVictimStillExitingIsNotCountedSoItsNeighbourSurvives() {
        server.memory.put(POSTMASTER, 20 * MB);
        server.memory.put(201L, 400 * MB);
        server.memory.put(202L, 590 * MB);
        governor.sample();
        server.memory.put(201L, 450 * MB); // grew meanwhile; 202 has not exited yet

        now = 25_000_000;
        governor.sample();

        assertThat(server.killed).containsExactly(202L);
        assertThat(governor.trace().peak(now, now + 1)).isEqualTo(470 * MB);
    }

    @Test
    void aNewBackendOverTheHostIsKilledOnceThePreviousVictimIsGone() {
        server.memory.put(POSTMASTER, 20 * MB);
        server.memory.put(202L, 1100 * MB);
        governor.sample();
        server.memory.remove(202L);
        server.memory.put(203L, 1200 * MB);

        governor.sample();

        assertThat(server.killed).containsExactly(202L, 203L);
    }

    @Test
    void thePostmasterIsNeverKilled() {
        server.memory.put(POSTMASTER, 1100 * MB);
        server.memory.put(201L, 5 * MB);

        governor.sample();

        assertThat(server.killed).containsExactly(201L);
        governor.sample();
        assertThat(server.killed).as("only the postmaster is left over the host").containsExactly(201L);
    }

    @Test
    void theTraceKnowsItsLongestGap() {
        server.memory.put(POSTMASTER, 20 * MB);
        for (long t : new long[] {0, 25, 50, 120, 145}) {
            now = t;
            governor.sample();
        }

        assertThat(governor.trace().samples(0, 146)).isEqualTo(5);
        assertThat(governor.trace().longestGapNanos(0, 146)).isEqualTo(70);
    }

    @Test
    void anIntervalAboveFiftyMillisecondsIsRefused() {
        assertThatThrownBy(() -> new MemoryGovernor(server, POSTMASTER, MB, Duration.ofMillis(51), () -> 0))
                .hasMessageContaining("interval must be in (0, 50 ms]");
    }

    @Test
    void procStatusRssAnonIsReadInBytes() {
        String status = "Name:\tpostgres\nVmRSS:\t  190000 kB\nRssAnon:\t    6144 kB\nRssFile:\t   10000 kB\n";

        assertThat(ProcFs.rssAnon(status)).hasValue(6144 * 1024);
        assertThat(ProcFs.rssAnon("Name:\tpostgres\nState:\tZ (zombie)\n")).isEmpty();
    }
}
