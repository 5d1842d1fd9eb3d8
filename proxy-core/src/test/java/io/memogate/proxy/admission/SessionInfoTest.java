package io.memogate.proxy.admission;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

/** How the logs name a session: user@database, the client's address as written by hand, its program. */
class SessionInfoTest {

    @Test
    void aSessionReadsAsUserAtDatabaseFromAddressAndProgram() {
        assertThat(new SessionInfo("memogate", "memogate", "psql", new InetSocketAddress("127.0.0.1", 51530)))
                .hasToString("memogate@memogate from 127.0.0.1:51530 (psql)");
        assertThat(new SessionInfo("app", "shop", "", new InetSocketAddress("::1", 40112)))
                .as("no program named; IPv6 in brackets").hasToString("app@shop from [0:0:0:0:0:0:0:1]:40112");
    }
}
