package io.memogate.proxy.tds.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.proxy.testing.ScriptedHook;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * jTDS 1.3.1, the other JDBC driver for SQL Server, through the proxy without TLS: its statements run, a refusal is
 * error 8628 in its SQLException, its PreparedStatement goes as sp_prepare then sp_execute by handle (each admitted
 * as the statement) and runs again and again by the same handle, and its batches go as several RPCs in one message
 * (BatchFlag 0x80, as TDS 7.1 has it), admitted or refused together. The test TDS server answers it in TDS 7.1. The
 * reuse tests run twice: through the proxy, and, as a control of the server's answers, with jTDS connected to the
 * server directly.
 */
class TdsJtdsIT {

    @RegisterExtension
    final TdsBed bed = new TdsBed();

    private Connection connect(boolean throughProxy) throws SQLException {
        String hostPort = throughProxy ? "127.0.0.1:" + bed.proxy().port() : bed.target().host + ":" + bed.target().port;
        return DriverManager.getConnection("jdbc:jtds:sqlserver://" + hostPort + "/" + bed.target().database
                + ";ssl=off;loginTimeout=30;socketTimeout=60", bed.target().user, bed.target().password);
    }

    private static int single(Statement statement, String sql) throws SQLException {
        try (ResultSet rows = statement.executeQuery(sql)) {
            assertThat(rows.next()).isTrue();
            return rows.getInt(1);
        }
    }

    private static int single(PreparedStatement statement) throws SQLException {
        try (ResultSet rows = statement.executeQuery()) {
            assertThat(rows.next()).isTrue();
            int n = rows.getInt(1);
            assertThat(rows.next()).isFalse();
            return n;
        }
    }

    /** How many times the test TDS server received {@code procedure} (its ProcID) for a statement containing text. */
    private long received(int procedure) {
        return bed.target().testServer.orElseThrow().procedureIds.stream().filter(id -> id == procedure).count();
    }

    @Test
    void aStatementRunsAndARefusedOneIs8628ThenTheConnectionGoesOn() throws Exception {
        try (Connection c = connect(true); Statement s = c.createStatement()) {
            assertThat(single(s, "SELECT 51 AS n")).isEqualTo(51);
            assertThatThrownBy(() -> single(s, "SELECT 52 AS n " + ScriptedHook.REFUSE))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getErrorCode()).isEqualTo(8628);
                        assertThat(e.getMessage()).contains("A time out occurred while waiting to optimize the query");
                    });
            assertThat(single(s, "SELECT 53 AS n")).isEqualTo(53);
        }
    }

    @ParameterizedTest(name = "through the proxy: {0}")
    @ValueSource(booleans = {true, false})
    void aPreparedStatementIsPreparedOnceThenExecutedByItsHandleEachTime(boolean throughProxy) throws Exception {
        try (Connection c = connect(throughProxy); PreparedStatement select = c.prepareStatement("SELECT ? AS n")) {
            for (int value : new int[] {61, 62, 63}) {
                select.setInt(1, value);
                assertThat(single(select)).as("execution with %d", value).isEqualTo(value);
            }
            try (Statement after = c.createStatement()) {
                assertThat(single(after, "SELECT 64 AS n")).isEqualTo(64);
            }
        }
        if (bed.target().testServer.isPresent()) {
            assertThat(received(11)).as("sp_prepare").isEqualTo(1);
            assertThat(received(12)).as("sp_execute by the handle").isEqualTo(3);
        }
        if (throughProxy) {
            // the prepare, and each execution by handle, waited for admission as the statement
            assertThat(bed.hook.requests).extracting(request -> request.sql())
                    .filteredOn(sql -> sql.contains("@P0") && sql.contains("AS n")).hasSize(4);
        }
    }

    @ParameterizedTest(name = "through the proxy: {0}")
    @ValueSource(booleans = {true, false})
    void aBatchCountsEachRowThenTheConnectionGoesOn(boolean throughProxy) throws Exception {
        try (Connection c = connect(throughProxy)) {
            try (PreparedStatement update = c.prepareStatement("UPDATE t SET a = 55 WHERE b = ?")) {
                for (int row = 0; row < 3; row++) {
                    update.setInt(1, row);
                    update.addBatch();
                }
                assertThat(update.executeBatch()).containsExactly(1, 1, 1);
                update.setInt(1, 7);
                assertThat(update.executeUpdate()).as("the same statement after its batch").isEqualTo(1);
            }
            try (Statement after = c.createStatement(); PreparedStatement select = c.prepareStatement("SELECT ? AS n")) {
                assertThat(single(after, "SELECT 57 AS n")).isEqualTo(57);
                select.setInt(1, 58);
                assertThat(single(select)).isEqualTo(58);
            }
        }
        if (bed.target().testServer.isPresent()) {
            // each row's prepare (one, the statement cache giving the same handle to the rest) and execution, then
            // the single execution after the batch
            assertThat(bed.target().testServer.get().rpcs).filteredOn(text -> text.contains("SET a = 55")).hasSize(5);
        }
        if (throughProxy) {
            assertThat(bed.hook.requests).extracting(request -> request.sql()).as("one admission for the batch")
                    .anyMatch(sql -> sql.split(";\n").length == 3);
        }
    }

    @Test
    void aRefusedBatchIsABatchUpdateExceptionWith8628AndNeverReachesTheServer() throws Exception {
        try (Connection c = connect(true)) {
            try (PreparedStatement refused = c.prepareStatement("UPDATE t SET a = 56 WHERE b = ? " + ScriptedHook.REFUSE)) {
                for (int row = 0; row < 3; row++) {
                    refused.setInt(1, row);
                    refused.addBatch();
                }
                // jTDS falls back from the refused sp_prepare (a warning) to sending the rows' text, refused together
                assertThatThrownBy(refused::executeBatch).isInstanceOfSatisfying(BatchUpdateException.class, e -> {
                    assertThat(e.getErrorCode()).isEqualTo(8628);
                    assertThat(e.getMessage()).contains("A time out occurred while waiting to optimize the query");
                    assertThat(e.getUpdateCounts()).containsOnly(Statement.EXECUTE_FAILED);
                });
            }
            try (Statement after = c.createStatement()) {
                assertThat(single(after, "SELECT 59 AS n")).isEqualTo(59);
            }
        }
        if (bed.target().testServer.isPresent()) {
            assertThat(bed.target().testServer.get().rpcs).noneMatch(text -> text.contains(ScriptedHook.REFUSE));
        }
        assertThat(Collections.frequency(bed.hook.requests.stream().map(request -> request.sql().split(";\n").length)
                .toList(), 3)).as("the rows refused together, once").isEqualTo(1);
    }
}
