package io.memogate.proxy.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.memogate.proxy.admin.ClientView;
import io.memogate.proxy.config.NetworkTransport;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import io.memogate.proxy.postgres.embedded.TestUsers;
import io.memogate.proxy.server.ListenException;
import io.netty.channel.uring.IoUring;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.newsclub.net.unix.AFUNIXDatagramSocket;
import org.newsclub.net.unix.AFUNIXSocketAddress;
import org.postgresql.util.PSQLException;
import org.slf4j.LoggerFactory;

/**
 * A listener whose host is a directory: the proxy makes its Unix socket there, as PostgreSQL does in
 * unix_socket_directories, and clients on the machine reach it without TCP (pgjdbc here through
 * junixsocket's socket factory; psql's case is in {@link ClientToolsIT}).
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class UnixSocketListenerIT {

    private static final int PORT = 6543;

    @Test
    void clientsOnTheSocketQueryAndCancelAndAreShownAsLocal(EmbeddedPostgres pg, @TempDir Path dir)
            throws Exception {
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).unixListener(dir, PORT).start();
             Connection connection = connectOverSocket(dir.resolve(".s.PGSQL." + PORT));
             Statement statement = connection.createStatement()) {
            ResultSet row = statement.executeQuery("select current_user");
            assertThat(row.next()).isTrue();
            assertThat(row.getString(1)).isEqualTo(TestUsers.SCRAM_USER);

            List<ClientView> clients = proxy.server().clients().toCompletableFuture().get(10, TimeUnit.SECONDS);
            assertThat(clients).extracting(ClientView::clientAddress).containsExactly("[local]");

            // The CancelRequest arrives on the socket too, on a connection of its own.
            CompletableFuture<Throwable> sleeping = CompletableFuture.supplyAsync(() -> {
                try {
                    statement.execute("select pg_sleep(30)");
                    return null;
                } catch (SQLException e) {
                    return e;
                }
            });
            ServerActivity.awaitRunning(pg, "demo", "select pg_sleep(30)");
            statement.cancel();
            assertThat(sleeping.get(20, TimeUnit.SECONDS)).isInstanceOfSatisfying(PSQLException.class,
                    e -> assertThat(e.getSQLState()).isEqualTo("57014"));
        }
    }

    @Test
    void theSocketIsOpenToEveryLocalUserAndRemovedOnClose(EmbeddedPostgres pg, @TempDir Path dir) throws Exception {
        Path socket = dir.resolve(".s.PGSQL." + PORT);
        Path lock = dir.resolve(".s.PGSQL." + PORT + ".lock");
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).unixListener(dir, PORT).start()) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(socket))).isEqualTo("rwxrwxrwx");
            assertThat(lock).as("PostgreSQL's lock file, naming this process")
                    .hasContent(Long.toString(ProcessHandle.current().pid()));
        }
        assertThat(socket).doesNotExist();
        assertThat(lock).doesNotExist();
    }

    /** As PostgreSQL: a lock file whose process still runs means the socket is someone's, even if missing. */
    @Test
    void aLockOfALiveProcessIsAnAddressInUseAndOneOfAnEndedProcessIsReplaced(EmbeddedPostgres pg,
                                                                            @TempDir Path dir) throws Exception {
        Path lock = dir.resolve(".s.PGSQL." + PORT + ".lock");
        Process live = new ProcessBuilder("sleep", "60").start();
        try {
            Files.writeString(lock, live.pid() + "\n/some/data/directory\n");
            assertThatThrownBy(() -> ProxyFixture.to(pg.host(), pg.port()).unixListener(dir, PORT).start())
                    .isInstanceOfSatisfying(ListenException.class,
                            e -> assertThat(e.reason()).isEqualTo(ListenException.Reason.ADDRESS_IN_USE));
            assertThat(lock).as("another process's lock").hasContent(live.pid() + "\n/some/data/directory");
        } finally {
            live.destroy();
            live.waitFor(10, TimeUnit.SECONDS);
        }
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).unixListener(dir, PORT).start();
             Connection connection = connectOverSocket(dir.resolve(".s.PGSQL." + PORT))) {
            assertThat(connection.isValid(5)).as("the ended process's lock was replaced").isTrue();
        }
    }

    /**
     * As PostgreSQL (CreateLockFile): a lock naming this very process is one a previous run left behind, since
     * this process has not taken it. In a container the proxy is the same process id at every start (often 1),
     * so after a crash its lock and socket on a kept volume name the new process: it must start, not find
     * its own id alive and refuse.
     */
    @Test
    void aLockLeftByAProcessWithThisProcessIdIsStale(EmbeddedPostgres pg, @TempDir Path dir) throws Exception {
        Path socket = dir.resolve(".s.PGSQL." + PORT);
        Path lock = dir.resolve(".s.PGSQL." + PORT + ".lock");
        try (ServerSocketChannel gone = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            gone.bind(UnixDomainSocketAddress.of(socket)); // the crashed run's socket, left behind
        }
        Files.writeString(lock, ProcessHandle.current().pid() + "\n");
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).unixListener(dir, PORT).start();
             Connection connection = connectOverSocket(socket)) {
            assertThat(connection.isValid(5)).isTrue();
        }
        assertThat(lock).doesNotExist();
    }

    /**
     * Two listeners of one process on one socket, its directory spelled two ways (a symbolic link): the second
     * is refused, and the first keeps its lock (a lock naming this process is stale only if this process does
     * not hold it).
     */
    @Test
    void aSecondListenerOfThisProcessOnTheSameSocketByAnotherPathLeavesTheLockAlone(EmbeddedPostgres pg,
                                                                                  @TempDir Path dir) throws Exception {
        Path lock = dir.resolve(".s.PGSQL." + PORT + ".lock");
        Path link = Files.createSymbolicLink(dir.resolveSibling(dir.getFileName() + "-link"), dir);
        try (ProxyFixture first = ProxyFixture.to(pg.host(), pg.port()).unixListener(dir, PORT).start()) {
            assertThatThrownBy(() -> ProxyFixture.to(pg.host(), pg.port()).unixListener(link, PORT).start())
                    .isInstanceOfSatisfying(ListenException.class,
                            e -> assertThat(e.reason()).isEqualTo(ListenException.Reason.ADDRESS_IN_USE));
            assertThat(lock).as("the first listener's lock").hasContent(Long.toString(ProcessHandle.current().pid()));
        } finally {
            Files.delete(link);
        }
    }

    /**
     * A proxy's socket deleted by hand while it runs: another proxy (here in the same process) is still
     * refused, by the lock, and the first one's stop then removes nothing of anyone else's.
     */
    @Test
    void aSocketDeletedByHandIsNotTakenOverWhileItsProxyRuns(EmbeddedPostgres pg, @TempDir Path dir)
            throws Exception {
        Path socket = dir.resolve(".s.PGSQL." + PORT);
        try (ProxyFixture first = ProxyFixture.to(pg.host(), pg.port()).unixListener(dir, PORT).start()) {
            Files.delete(socket);
            assertThatThrownBy(() -> ProxyFixture.to(pg.host(), pg.port()).unixListener(dir, PORT).start())
                    .isInstanceOfSatisfying(ListenException.class,
                            e -> assertThat(e.reason()).isEqualTo(ListenException.Reason.ADDRESS_IN_USE));
        }
        try (ProxyFixture second = ProxyFixture.to(pg.host(), pg.port()).unixListener(dir, PORT).start();
             Connection connection = connectOverSocket(socket)) {
            assertThat(connection.isValid(5)).isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(value = NetworkTransport.class, names = {"NIO", "IO_URING"})
    void everyTransportListensOnTheSocket(NetworkTransport transport, EmbeddedPostgres pg, @TempDir Path dir)
            throws Exception {
        assumeTrue(transport != NetworkTransport.IO_URING || IoUring.isAvailable(),
                () -> "io_uring cannot be used here: " + IoUring.unavailabilityCause());
        Path socket = dir.resolve(".s.PGSQL." + PORT);
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).transport(transport).unixListener(dir, PORT)
                .start();
             Connection connection = connectOverSocket(socket)) {
            assertThat(connection.isValid(5)).isTrue();
            List<ClientView> clients = proxy.server().clients().toCompletableFuture().get(10, TimeUnit.SECONDS);
            assertThat(clients).extracting(ClientView::clientAddress).containsExactly("[local]");
        }
        assertThat(socket).doesNotExist();
    }

    /**
     * A client on the socket has no address (its end is unnamed): the logs call it [local], as SHOW CLIENTS
     * does, not "closing client : ...".
     */
    @Test
    void logsNameASocketClientLocal(EmbeddedPostgres pg, @TempDir Path dir) throws Exception {
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        Logger timerLog = (Logger) LoggerFactory.getLogger("io.memogate.proxy.pg.session.LoginTimer");
        log.start();
        timerLog.addAppender(log);
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).loginTimeout(Duration.ofMillis(200))
                .unixListener(dir, PORT).start();
             SocketChannel silent = SocketChannel.open(UnixDomainSocketAddress.of(dir.resolve(".s.PGSQL." + PORT)))) {
            assertThat(silent.read(ByteBuffer.allocate(1))).as("closed for its silence").isEqualTo(-1);
        } finally {
            timerLog.detachAppender(log);
        }
        assertThat(log.list).extracting(ILoggingEvent::getFormattedMessage)
                .containsExactly("closing client [local]: no startup packet within 200ms (limits.loginTimeout)");
    }

    /** As PostgreSQL: a socket file no process answers on (a crash left it) is replaced. */
    @Test
    void aStaleSocketFileIsReplaced(EmbeddedPostgres pg, @TempDir Path dir) throws Exception {
        Path socket = dir.resolve(".s.PGSQL." + PORT);
        try (ServerSocketChannel gone = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            gone.bind(UnixDomainSocketAddress.of(socket)); // closing it leaves the file behind
        }
        assertThat(socket).exists();
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).unixListener(dir, PORT).start();
             Connection connection = connectOverSocket(socket)) {
            assertThat(connection.isValid(5)).isTrue();
        }
    }

    @Test
    void aSocketSomeoneAnswersOnIsAnAddressInUse(EmbeddedPostgres pg, @TempDir Path dir) throws Exception {
        try (ProxyFixture first = ProxyFixture.to(pg.host(), pg.port()).unixListener(dir, PORT).start()) {
            assertThatThrownBy(() -> ProxyFixture.to(pg.host(), pg.port()).unixListener(dir, PORT).start())
                    .isInstanceOfSatisfying(ListenException.class, e -> {
                        assertThat(e.reason()).isEqualTo(ListenException.Reason.ADDRESS_IN_USE);
                        assertThat(e.setting()).isEqualTo("listeners[1]");
                        assertThat(e.getMessage()).contains(dir.resolve(".s.PGSQL." + PORT).toString());
                    });
            try (Connection stillServed = connectOverSocket(dir.resolve(".s.PGSQL." + PORT))) {
                assertThat(stillServed.isValid(5)).as("the first proxy's socket is left alone").isTrue();
            }
        }
    }

    /**
     * Only a refused connect makes a socket file stale. Anything else (a socket of another kind, here a
     * datagram one; one whose mode keeps the proxy's user out, EACCES) may well be some process's live
     * socket, which the proxy must neither delete nor take over.
     */
    @Test
    void aSocketThatDoesNotRefuseIsLeftAlone(EmbeddedPostgres pg, @TempDir Path dir) throws Exception {
        Path socket = dir.resolve(".s.PGSQL." + PORT);
        try (AFUNIXDatagramSocket live = AFUNIXDatagramSocket.newInstance()) {
            live.bind(AFUNIXSocketAddress.of(socket));
            assertThatThrownBy(() -> ProxyFixture.to(pg.host(), pg.port()).unixListener(dir, PORT).start())
                    .isInstanceOfSatisfying(ListenException.class,
                            e -> assertThat(e.reason()).isEqualTo(ListenException.Reason.ADDRESS_IN_USE));
            assertThat(socket).as("the other process's socket").exists();
            assertThat(live.isBound()).isTrue();
        }
    }

    /**
     * Netty's native transports unlink the path before they bind: a file someone left there (here a
     * regular one with content) must be refused as an address in use, as NIO's bind does, not removed.
     */
    @ParameterizedTest
    @EnumSource(value = NetworkTransport.class, names = {"EPOLL", "NIO"})
    void aRegularFileAtThePathIsLeftAlone(NetworkTransport transport, EmbeddedPostgres pg, @TempDir Path dir)
            throws Exception {
        Path socket = Files.writeString(dir.resolve(".s.PGSQL." + PORT), "someone's data");
        assertThatThrownBy(() -> ProxyFixture.to(pg.host(), pg.port()).transport(transport).unixListener(dir, PORT)
                .start())
                .isInstanceOfSatisfying(ListenException.class,
                        e -> assertThat(e.reason()).isEqualTo(ListenException.Reason.ADDRESS_IN_USE));
        assertThat(socket).hasContent("someone's data");
    }

    /** A connect to a FIFO is refused as to a stale socket; but it is no socket, and not the proxy's to remove. */
    @Test
    void aFifoAtThePathIsLeftAlone(EmbeddedPostgres pg, @TempDir Path dir) throws Exception {
        Path fifo = dir.resolve(".s.PGSQL." + PORT);
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor()).isZero();
        assertThatThrownBy(() -> ProxyFixture.to(pg.host(), pg.port()).unixListener(dir, PORT).start())
                .isInstanceOfSatisfying(ListenException.class,
                        e -> assertThat(e.reason()).isEqualTo(ListenException.Reason.ADDRESS_IN_USE));
        assertThat(fifo).exists();
    }

    private static Connection connectOverSocket(Path socket) throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", TestUsers.SCRAM_USER);
        props.setProperty("password", TestUsers.SCRAM_PASSWORD);
        props.setProperty("sslmode", "disable");
        props.setProperty("socketFactory", "org.newsclub.net.unix.AFUNIXSocketFactory$FactoryArg");
        props.setProperty("socketFactoryArg", socket.toString());
        return DriverManager.getConnection("jdbc:postgresql://localhost:" + PORT + "/demo", props);
    }
}
