package io.memogate.broker.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

class ServerConnectionsTest {

    @Test
    void listedConnectionsBoundTheActiveCount() {
        assertThatThrownBy(() -> new ServerConnections(100, 3, List.of(7, 8)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("active must be in [0, 2], the connections, was 3");
    }

    @Test
    void aServerThatListsNoConnectionsGivesItsOwnActiveCount() {
        // MySQL without PROCESS: Threads_running says how many run, the processlist shows none of them.
        assertThat(new ServerConnections(100, 3, List.of()).active()).isEqualTo(3);
        assertThatThrownBy(() -> new ServerConnections(100, -1, List.of())).isInstanceOf(IllegalArgumentException.class);
    }
}
