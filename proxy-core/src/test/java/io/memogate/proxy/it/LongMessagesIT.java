package io.memogate.proxy.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.proxy.admission.Admission;
import io.memogate.proxy.admission.AdmissionHook;
import io.memogate.proxy.admission.AdmittedStatement;
import io.memogate.proxy.admission.ImmediateAdmission;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetric;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import org.postgresql.largeobject.LargeObject;
import org.postgresql.largeobject.LargeObjectManager;

/**
 * A client message far over limits.maxMessageBytes reaches the server when the proxy needs only its
 * start: a Bind carrying a big parameter, a CopyData carrying a big row and a FunctionCall writing a big
 * large object are relayed in parts, with the gateways off, on, and while the Bind waits for admission,
 * in bounded memory. (A Query must be held whole: over the limit it is refused, FaultsIT.)
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class LongMessagesIT {

    /** Far below the 8 MB values sent here: the proxy must not hold those messages whole. */
    private static final int MAX_MESSAGE_BYTES = 16 * 1024;
    private static final int VALUE_BYTES = 8 * 1024 * 1024;

    enum Gateways {
        /** Gateways off: a Bind is checked, not decoded. */
        OFF(new ImmediateAdmission()),
        /** A hook that reads statements and admits at once. */
        ON(request -> Admission.IMMEDIATE),
        /** A hook that admits a few milliseconds late from another thread: the Bind's parts queue behind it. */
        HOLDING(request -> Admission.of(CompletableFuture.supplyAsync(() -> AdmittedStatement.UNGATED,
                CompletableFuture.delayedExecutor(5, TimeUnit.MILLISECONDS))));

        final AdmissionHook hook;

        Gateways(AdmissionHook hook) {
            this.hook = hook;
        }
    }

    private static ProxyFixture proxy(EmbeddedPostgres pg, AdmissionHook hook) throws InterruptedException {
        return ProxyFixture.to(pg.host(), pg.port()).maxMessageBytes(MAX_MESSAGE_BYTES).admission(hook).start();
    }

    @ParameterizedTest
    @EnumSource(Gateways.class)
    void bindsWithLongParametersArriveWholeAndInOrder(Gateways gateways, EmbeddedPostgres pg) throws Exception {
        String table = "long_binds_" + gateways.name().toLowerCase();
        pg.execute("demo", "create table if not exists " + table + " (id int, data bytea)", "truncate " + table);
        byte[][] values = {value(1), value(2), value(3)};
        try (ProxyFixture proxy = proxy(pg, gateways.hook);
                Connection connection = proxy.connect("demo", "memogate", "memogate");
                PreparedStatement insert = connection.prepareStatement("insert into " + table + " values (?, ?)")) {
            insert.setInt(1, 0);
            insert.setBytes(2, values[0]);
            assertThat(insert.executeUpdate()).isEqualTo(1);
            for (int i = 1; i < values.length; i++) { // a pipelined batch: one long Bind after another
                insert.setInt(1, i);
                insert.setBytes(2, values[i]);
                insert.addBatch();
            }
            assertThat(insert.executeBatch()).containsExactly(1, 1);
            assertStillUsable(connection);
        }
        try (Connection direct = pg.connect("demo"); Statement statement = direct.createStatement();
                ResultSet rows = statement.executeQuery("select id, md5(data) from " + table + " order by id")) {
            for (byte[] value : values) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getString(2)).as("row %d as sent", rows.getInt(1)).isEqualTo(md5(value));
            }
            assertThat(rows.next()).isFalse();
        }
    }

    @ParameterizedTest
    @EnumSource(Gateways.class)
    void aLongCopyRowArrivesWhole(Gateways gateways, EmbeddedPostgres pg) throws Exception {
        String table = "long_copy_" + gateways.name().toLowerCase();
        pg.execute("demo", "create table if not exists " + table + " (note text)", "truncate " + table);
        byte[] row = ("x".repeat(VALUE_BYTES) + "\n").getBytes(StandardCharsets.US_ASCII);
        try (ProxyFixture proxy = proxy(pg, gateways.hook);
                Connection connection = proxy.connect("demo", "memogate", "memogate")) {
            CopyIn copy = connection.unwrap(PGConnection.class).getCopyAPI().copyIn("copy " + table + " from stdin");
            copy.writeToCopy(row, 0, row.length); // one CopyData message holding the whole row
            assertThat(copy.endCopy()).isEqualTo(1);
            assertStillUsable(connection);
        }
        try (Connection direct = pg.connect("demo"); Statement statement = direct.createStatement();
                ResultSet rows = statement.executeQuery("select length(note) from " + table)) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getInt(1)).isEqualTo(VALUE_BYTES);
        }
    }

    /** pgjdbc writes a large object in one FunctionCall (lo_write over the fastpath). */
    @ParameterizedTest
    @EnumSource(Gateways.class)
    void aLongLargeObjectWriteArrivesWhole(Gateways gateways, EmbeddedPostgres pg) throws Exception {
        byte[] value = value(4);
        long oid;
        try (ProxyFixture proxy = proxy(pg, gateways.hook);
                Connection connection = proxy.connect("demo", "memogate", "memogate")) {
            connection.setAutoCommit(false); // large objects live in transactions
            LargeObjectManager objects = connection.unwrap(PGConnection.class).getLargeObjectAPI();
            oid = objects.createLO();
            try (LargeObject object = objects.open(oid, LargeObjectManager.WRITE)) {
                object.write(value);
            }
            connection.commit();
            assertStillUsable(connection);
        }
        try (Connection direct = pg.connect("demo"); Statement statement = direct.createStatement();
                ResultSet rows = statement.executeQuery("select md5(lo_get(" + oid + "))")) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getString(1)).isEqualTo(md5(value));
        }
        pg.execute("demo", "select lo_unlink(" + oid + ")");
    }

    /**
     * 100 MB in one Bind, over the default limit of 64 MiB, with the proxy's buffers sampled meanwhile:
     * the value goes through a part at a time, as a 100 MB result goes the other way (SlowReaderIT).
     */
    @Test
    void aHundredMegabyteParameterGoesThroughInBoundedMemory(EmbeddedPostgres pg) throws Exception {
        pg.execute("demo", "create table if not exists long_hundred (data bytea)", "truncate long_hundred");
        byte[] value = new byte[100 * 1024 * 1024];
        new Random(100).nextBytes(value);
        ByteBufAllocatorMetric buffers = ((ByteBufAllocatorMetricProvider) ByteBufAllocator.DEFAULT).metric();
        AtomicLong peak = new AtomicLong();
        AtomicBoolean inserting = new AtomicBoolean(true);
        Thread sampler = Thread.ofVirtual().start(() -> {
            while (inserting.get()) {
                peak.accumulateAndGet(buffers.usedDirectMemory() + buffers.usedHeapMemory(), Math::max);
                LockSupport.parkNanos(1_000_000); // the sampling period: this waits for nothing
            }
        });
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).start();
                Connection connection = proxy.connect("demo", "memogate", "memogate");
                PreparedStatement insert = connection.prepareStatement("insert into long_hundred values (?)")) {
            insert.setBytes(1, value);
            assertThat(insert.executeUpdate()).isEqualTo(1);
        } finally {
            inserting.set(false);
            sampler.join();
        }
        assertThat(peak.get()).as("proxy buffer memory while relaying 100 MB").isLessThan(32L * 1024 * 1024);
        try (Connection direct = pg.connect("demo"); Statement statement = direct.createStatement();
                ResultSet rows = statement.executeQuery("select md5(data) from long_hundred")) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getString(1)).isEqualTo(md5(value));
        }
    }

    private static void assertStillUsable(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery("select 42")) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getInt(1)).isEqualTo(42);
        }
    }

    /** Random bytes, different for each seed, so a lost, repeated or misplaced part shows. */
    static byte[] value(int seed) {
        byte[] value = new byte[VALUE_BYTES];
        new Random(seed).nextBytes(value);
        return value;
    }

    static String md5(byte[] value) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(value));
    }
}
