package io.memogate.proxy.it;

import static io.memogate.proxy.it.FaultsIT.assertReady;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.memogate.estimator.postgres.PlannerSettings;
import io.memogate.estimator.postgres.PostgresLexicalRules;
import io.memogate.proxy.admission.Admission;
import io.memogate.proxy.admission.AdmissionHook;
import io.memogate.proxy.admission.AdmissionSupport;
import io.memogate.proxy.admission.AdmittedStatement;
import io.memogate.proxy.admission.WaitNotice;
import io.memogate.proxy.config.NetworkTransport;
import io.memogate.proxy.it.RawPgClient.Message;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import io.memogate.proxy.testing.Await;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetric;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import io.netty.channel.uring.IoUring;
import java.io.DataInputStream;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A 100 MB result to a client that does not read: the proxy stops reading the server instead of
 * buffering the result (AUTO_READ off, reads driven by the client's writability), whether it comes as
 * many rows or as one row holding a 100 MB value.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class SlowReaderIT {

    private static final long MB = 1024 * 1024;

    /** On each transport: io_uring submits reads ahead, so pausing them is its own code path in Netty. */
    @ParameterizedTest
    @EnumSource(value = NetworkTransport.class, names = {"AUTO", "IO_URING"})
    void memoryStaysBoundedWhileTheClientDoesNotRead(NetworkTransport transport, EmbeddedPostgres pg) throws Exception {
        assumeTrue(transport != NetworkTransport.IO_URING || IoUring.isAvailable(),
                () -> "io_uring cannot be used here: " + IoUring.unavailabilityCause());
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).transport(transport).start();
                RawPgClient client = new RawPgClient(proxy.port())) {
            client.setReceiveBuffer(64 * 1024);
            assertReady(client.startup("memogate_trust", "demo"));
            int pid = client.serverPid();
            client.query("select repeat('m', 1000) from generate_series(1, 100000)"); // 100 MB of rows

            assertThat(peakUntilTheServerWaitsToWrite(pg, pid)).as("proxy buffer memory while the client reads nothing")
                    .isLessThan(32 * MB);

            long rows = 0;
            Message message;
            while ((message = client.read()).type() != 'Z') {
                if (message.type() == 'D') {
                    rows++;
                }
            }
            assertThat(rows).isEqualTo(100_000);
        }
    }

    /** One row holding a 100 MB value: relayed in parts, not gathered whole in the proxy first. */
    @Test
    void aSingleHugeValueIsRelayedWithoutBeingBufferedWhole(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).start();
                RawPgClient client = new RawPgClient(proxy.port())) {
            client.setReceiveBuffer(64 * 1024);
            assertReady(client.startup("memogate_trust", "demo"));
            int pid = client.serverPid();
            client.query("select repeat('v', 100 * 1024 * 1024)");

            assertThat(peakUntilTheServerWaitsToWrite(pg, pid))
                    .as("proxy buffer memory while the client reads nothing of a 100 MB row").isLessThan(32 * MB);

            assertThat(client.read().type()).isEqualTo('T');
            Message row = client.read();
            assertThat(row.type()).isEqualTo('D');
            ByteBuffer columns = ByteBuffer.wrap(row.body());
            assertThat(columns.getShort()).isEqualTo((short) 1);
            assertThat(columns.getInt()).as("the value's length").isEqualTo(100 * 1024 * 1024);
            assertThat(row.body()[row.body().length - 1]).isEqualTo((byte) 'v');
            assertThat(client.readUntilReady()).extracting(Message::type).containsExactly('C', 'Z');
            // The session goes on after the streamed row.
            client.query("select 1");
            assertThat(client.readUntilReady()).extracting(Message::type).containsExactly('T', 'D', 'C', 'Z');
        }
    }

    /**
     * The server process ends while a huge row is half relayed (pg_terminate_backend while it waits for
     * the client to read): the client gets the part of the row that came, then end of stream, as straight
     * from the server; not the proxy's FATAL written into the row, where it would be read as the value.
     */
    @Test
    void aServerEndingMidRowLeavesTheRowCutShortNotFilledWithAnError(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).start();
                RawPgClient client = new RawPgClient(proxy.port())) {
            client.setReceiveBuffer(64 * 1024);
            assertReady(client.startup("memogate_trust", "demo"));
            int pid = client.serverPid();
            client.query("select repeat('v', 100 * 1024 * 1024)");
            ServerActivity.awaitWaitEvent(pg, pid, "Client:ClientWrite");
            try (Connection admin = pg.connect("postgres"); Statement statement = admin.createStatement()) {
                statement.execute("select pg_terminate_backend(" + pid + ")");
            }

            assertThat(client.read().type()).isEqualTo('T');
            DataInputStream in = client.input();
            assertThat((char) in.readUnsignedByte()).isEqualTo('D');
            int length = in.readInt();
            assertThat(in.readShort()).as("columns").isEqualTo((short) 1);
            assertThat(in.readInt()).as("the value's length").isEqualTo(100 * 1024 * 1024);
            long valueBytes = 0;
            byte[] chunk = new byte[64 * 1024];
            for (int read; (read = in.read(chunk)) > 0; valueBytes += read) {
                for (int i = 0; i < read; i++) {
                    assertThat((char) chunk[i]).as("byte %d of the value", valueBytes + i).isEqualTo('v');
                }
            }
            assertThat(valueBytes).as("the row was cut short, then the stream ended").isLessThan(length - 4 - 6);
        }
    }

    /**
     * A statement pipelined behind a huge row waits for admission past admission.waitNotice while the row is
     * half relayed: its NOTICE comes after the row, not written into it, where it would be read as the value.
     */
    @Test
    void aWaitNoticeDueMidRowWaitsForTheRowsEnd(EmbeddedPostgres pg) throws Exception {
        CompletableFuture<AdmittedStatement> gate = new CompletableFuture<>();
        CountDownLatch asked = new CountDownLatch(1);
        AdmissionHook holdSecond = request -> !request.sql().equals("select 2") ? Admission.IMMEDIATE
                : asked(asked, new Queued(gate));
        AdmissionSupport noticeSoon = new AdmissionSupport(() -> PlannerSettings.DEFAULTS, Duration.ofMillis(50),
                PostgresLexicalRules.analyzer());
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).admission(holdSecond)
                .admissionSupport(noticeSoon).start();
                RawPgClient client = new RawPgClient(proxy.port())) {
            client.setReceiveBuffer(64 * 1024);
            assertReady(client.startup("memogate_trust", "demo"));
            int pid = client.serverPid();
            int valueBytes = 32 * 1024 * 1024;
            client.query("select repeat('v', " + valueBytes + ")");
            ServerActivity.awaitWaitEvent(pg, pid, "Client:ClientWrite");
            client.query("select 2");
            assertThat(asked.await(10, TimeUnit.SECONDS)).as("the second statement waits").isTrue();
            proxy.awaitTimersDue(Duration.ofMillis(50)); // admission.waitNotice: its NOTICE fell due mid-row

            assertThat(client.read().type()).isEqualTo('T');
            DataInputStream in = client.input();
            assertThat((char) in.readUnsignedByte()).isEqualTo('D');
            in.readInt();
            assertThat(in.readShort()).as("columns").isEqualTo((short) 1);
            assertThat(in.readInt()).as("the value's length").isEqualTo(valueBytes);
            byte[] value = new byte[valueBytes];
            in.readFully(value);
            int others = 0;
            for (byte b : value) {
                others += b == 'v' ? 0 : 1;
            }
            assertThat(others).as("bytes of the value that are not 'v'").isZero();
            List<Character> after = new ArrayList<>();
            for (Message m = client.read(); m.type() != 'Z'; m = client.read()) {
                after.add(m.type());
            }
            if (!after.contains('N')) {
                // Due again a wait after the row's end, and the second statement still waits: it comes now.
                after.add(client.read().type());
            }
            gate.complete(AdmittedStatement.UNGATED);
            for (Message m = client.read(); m.type() != 'Z'; m = client.read()) {
                after.add(m.type());
            }
            assertThat(after).as("the first's end, the notice, the second's rows").contains('N')
                    .containsSubsequence('C', 'T', 'D', 'C');
        }
    }

    /**
     * The most buffer memory the proxy held until server process {@code pid} waited to write: then every buffer on
     * the way is full, and a proxy that stopped reading the server holds what it will hold. One that kept reading
     * would let the server finish instead, and the wait fails.
     */
    private static long peakUntilTheServerWaitsToWrite(EmbeddedPostgres pg, int pid) throws InterruptedException {
        ByteBufAllocatorMetric buffers = ((ByteBufAllocatorMetricProvider) ByteBufAllocator.DEFAULT).metric();
        AtomicLong peak = new AtomicLong();
        Await.until("server process " + pid + " waits for the proxy to read (Client:ClientWrite)", () -> {
            peak.accumulateAndGet(buffers.usedDirectMemory() + buffers.usedHeapMemory(), Math::max);
            return ServerActivity.waitEvent(pg, "postgres", pid).equals("Client:ClientWrite");
        });
        return peak.accumulateAndGet(buffers.usedDirectMemory() + buffers.usedHeapMemory(), Math::max);
    }

    private static Admission asked(CountDownLatch asked, Admission admission) {
        asked.countDown();
        return admission;
    }

    /** A statement that waits until the test admits it, and says so in the wait NOTICE. */
    private record Queued(CompletableFuture<AdmittedStatement> decision) implements Admission {
        @Override
        public boolean withdraw() {
            return false;
        }

        @Override
        public Optional<WaitNotice> waiting() {
            return Optional.of(new WaitNotice("queued in the test", "the test admits it"));
        }
    }
}
