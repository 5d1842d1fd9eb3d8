package io.memogate.proxy.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.memogate.proxy.config.NetworkTransport;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import io.memogate.proxy.postgres.embedded.TestUsers;
import io.netty.channel.uring.IoUring;
import java.net.ServerSocket;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.postgresql.util.PSQLException;

/**
 * The pass-through contract (simple and extended protocol, COPY, cancel, notices, large results) with the
 * proxy on io_uring, against the embedded PostgreSQL 18: every socket of a session, the server leg and the
 * cancel request included, is then an io_uring channel. Skipped, saying why, where io_uring cannot be used
 * (kernel.io_uring_disabled, a container's seccomp profile): there the proxy falls back to epoll, which the
 * default run covers.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class IoUringPassthroughIT extends PassthroughContract {

    private static EmbeddedPostgres pg;

    @BeforeAll
    static void server(EmbeddedPostgres server) {
        assumeTrue(IoUring.isAvailable(), () -> "io_uring cannot be used here: " + IoUring.unavailabilityCause());
        pg = server;
    }

    @Override
    protected Backend backend() {
        return new Backend(pg.host(), pg.port(), "demo", TestUsers.SCRAM_USER, TestUsers.SCRAM_PASSWORD);
    }

    @Override
    protected NetworkTransport transport() {
        return NetworkTransport.IO_URING;
    }

    @Test
    void theProxyRunsOnIoUring() {
        assertThat(proxy.server().transportName()).isEqualTo("io_uring");
    }

    /** io_uring reports a failed connect through its own completion, not epoll's errno path: same message. */
    @Test
    void anUnreachableBackendIsNamedWithTheCause() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        try (ProxyFixture unreachable = ProxyFixture.to("127.0.0.1", closedPort).transport(transport()).start()) {
            assertThatThrownBy(() -> unreachable.connect("demo", "memogate", "memogate"))
                    .isInstanceOfSatisfying(PSQLException.class, e -> {
                        assertThat(e.getSQLState()).isEqualTo("08001");
                        assertThat(e.getMessage()).contains("127.0.0.1:" + closedPort).containsIgnoringCase("refused");
                    });
        }
    }
}
