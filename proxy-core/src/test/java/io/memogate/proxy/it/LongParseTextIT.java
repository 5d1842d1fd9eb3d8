package io.memogate.proxy.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.proxy.admission.Admission;
import io.memogate.proxy.admission.AdmissionHook;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.postgresql.util.PSQLException;

/**
 * The extended protocol with a statement text of 1 MiB through pgjdbc: its Parse is decoded and read off the event
 * loop, as a long simple Query is, and what the driver pipelines behind it (its Bind, Describe, Execute, the next
 * statement, the Sync) reaches the server behind it, so every answer arrives whole and in order. "offset" in the
 * text holds "set", so each Bind of it is lexed for SETs, also off the loop.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class LongParseTextIT {

    private static final String LITERAL = "offset " + "x".repeat(1 << 20);

    /** Not the common pool, which a test here keeps busy. */
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final List<String> asked = new CopyOnWriteArrayList<>();
    private final AdmissionHook recording = request -> {
        asked.add(request.sql());
        return Admission.IMMEDIATE;
    };

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    private ProxyFixture proxy(EmbeddedPostgres pg) throws InterruptedException {
        return ProxyFixture.to(pg.host(), pg.port()).maxMessageBytes(4 << 20).admission(recording).start();
    }

    @Test
    void aLongStatementAndTheStatementsPipelinedBehindItAnswerWholeAndInOrder(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = proxy(pg);
                Connection connection = proxy.connect("demo", "memogate", "memogate", "prepareThreshold", "1");
                Statement statement = connection.createStatement()) {
            // pgjdbc sends both in one pipeline: Parse, Bind, Describe, Execute of each, then one Sync.
            assertThat(statement.execute("select '" + LITERAL + "' as big; select 'after' as short")).isTrue();
            assertThat(single(statement.getResultSet())).as("the long one's value, whole").isEqualTo(LITERAL);
            assertThat(statement.getMoreResults()).isTrue();
            assertThat(single(statement.getResultSet())).isEqualTo("after");
            assertThat(statement.getMoreResults()).isFalse();

            // A server-side statement from its first run (prepareThreshold 1): the runs after are Binds of it alone.
            try (PreparedStatement prepared = connection.prepareStatement("select ?::text || '" + LITERAL + "'")) {
                for (int run = 0; run < 3; run++) {
                    prepared.setString(1, "run " + run + ": ");
                    assertThat(single(prepared.executeQuery())).isEqualTo("run " + run + ": " + LITERAL);
                }
            }
        }
        List<String> asked = this.asked.stream().map(sql -> sql.length() > 100 ? "long" : sql.strip()).toList();
        assertThat(asked).as("each admitted with its whole text, in order").containsSubsequence(
                "long", "select 'after' as short", "long", "long", "long");
        assertThat(this.asked).filteredOn(sql -> sql.length() > 100)
                .allSatisfy(sql -> assertThat(sql).contains(LITERAL));
    }

    /**
     * The common pool, where long texts are read, is kept busy: the long statement waits for it (SHOW CLIENTS
     * says its text is being read) while another session is answered, and a cancel meanwhile withdraws it with
     * 57014, as PostgreSQL fails a Parse it cancels; the server never sees it, and the session goes on.
     */
    @Test
    void aLongParseWaitsForItsReadAndACancelMeanwhileWithdrawsIt(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = proxy(pg);
                Connection connection = proxy.connect("demo", "memogate", "memogate");
                Connection other = proxy.connect("demo", "memogate", "memogate");
                PreparedStatement prepared = connection.prepareStatement("select '" + LITERAL + "'")) {
            CompletableFuture<SQLException> running;
            try (BusyCommonPool busy = BusyCommonPool.hold()) {
                running = CompletableFuture.supplyAsync(() -> failure(prepared), threads);
                proxy.awaitSessionIn("reading query text");
                try (Statement statement = other.createStatement()) {
                    assertThat(single(statement.executeQuery("select 'not held up'"))).isEqualTo("not held up");
                }
                assertThat(running).as("waits for its text to be read").isNotDone();
                prepared.cancel();
            }
            assertThat((Throwable) running.get(30, TimeUnit.SECONDS)).isInstanceOfSatisfying(PSQLException.class,
                    e -> assertThat(e.getSQLState()).isEqualTo("57014"));
            assertThat(single(prepared.executeQuery())).as("run again, not cancelled").isEqualTo(LITERAL);
        }
    }

    private static String single(ResultSet rows) throws SQLException {
        try (rows) {
            assertThat(rows.next()).isTrue();
            String value = rows.getString(1);
            assertThat(rows.next()).isFalse();
            return value;
        }
    }

    private static SQLException failure(PreparedStatement prepared) {
        try {
            prepared.executeQuery().close();
            return null;
        } catch (SQLException e) {
            return e;
        }
    }
}
