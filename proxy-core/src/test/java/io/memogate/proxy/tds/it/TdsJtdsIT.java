package io.memogate.proxy.tds.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.proxy.testing.ScriptedHook;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * jTDS 1.3.1, the other JDBC driver for SQL Server, through the proxy without TLS: its statements run, a refusal is
 * error 8628 in its SQLException, its PreparedStatement goes as sp_prepare then sp_execute by handle (each admitted
 * as the statement), and its batches go as several RPCs in one message (BatchFlag 0x80, as TDS 7.1 has it), admitted
 * or refused together. The test TDS server answers it in TDS 7.1.
 */
class TdsJtdsIT {

    private final ScriptedHook hook = new ScriptedHook();
    private TdsTarget target;
    private TdsProxy proxy;

    @BeforeEach
    void start() throws Exception {
        target = TdsTarget.open();
        proxy = TdsProxy.to(target, hook);
    }

    @AfterEach
    void stop() throws Exception {
        proxy.close();
        target.close();
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:jtds:sqlserver://127.0.0.1:" + proxy.port() + "/" + target.database
                + ";ssl=off;loginTimeout=30;socketTimeout=60", target.user, target.password);
    }

    private static int single(Statement statement, String sql) throws SQLException {
        try (ResultSet rows = statement.executeQuery(sql)) {
            assertThat(rows.next()).isTrue();
            return rows.getInt(1);
        }
    }

    @Test
    void aStatementRunsAndARefusedOneIs8628ThenTheConnectionGoesOn() throws Exception {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            assertThat(single(s, "SELECT 51 AS n")).isEqualTo(51);
            assertThatThrownBy(() -> single(s, "SELECT 52 AS n " + ScriptedHook.REFUSE))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getErrorCode()).isEqualTo(8628);
                        assertThat(e.getMessage()).contains("A time out occurred while waiting to optimize the query");
                    });
            assertThat(single(s, "SELECT 53 AS n")).isEqualTo(53);
        }
    }

    @Test
    void aPreparedStatementIsPreparedThenExecutedByHandleAdmittedAsItsText() throws Exception {
        try (Connection c = connect(); PreparedStatement select = c.prepareStatement("SELECT 54 AS n WHERE ? = 1")) {
            select.setInt(1, 1);
            try (ResultSet rows = select.executeQuery()) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getInt(1)).isEqualTo(54);
            }
        }
        if (target.testServer.isPresent()) {
            assertThat(target.testServer.get().procedureIds).as("sp_prepare, then sp_execute").contains(11, 12);
        }
        // the prepare, and the execution by handle
        assertThat(hook.requests).extracting(request -> request.sql())
                .filteredOn(sql -> sql.startsWith("SELECT 54 AS n WHERE")).hasSizeGreaterThanOrEqualTo(2);
    }

    @Test
    void aBatchOfRpcsIsAdmittedTogetherAndRefusedTogether() throws Exception {
        try (Connection c = connect()) {
            try (PreparedStatement update = c.prepareStatement("UPDATE t SET a = 55 WHERE b = ?")) {
                for (int row = 0; row < 3; row++) {
                    update.setInt(1, row);
                    update.addBatch();
                }
                assertThat(update.executeBatch()).hasSize(3);
            }
            assertThat(hook.requests).extracting(request -> request.sql()).as("one admission for the batch")
                    .anyMatch(sql -> sql.split(";\n").length == 3);
            if (target.testServer.isPresent()) {
                assertThat(target.testServer.get().rpcs).filteredOn(text -> text.contains("SET a = 55")).hasSize(4);
            }
            try (PreparedStatement refused = c.prepareStatement("UPDATE t SET a = 56 WHERE b = ? " + ScriptedHook.REFUSE)) {
                for (int row = 0; row < 3; row++) {
                    refused.setInt(1, row);
                    refused.addBatch();
                }
                // jTDS falls back from the refused sp_prepare to the statements' text, refused together; it reports
                // the batch as failed in its counts rather than raising the 8628 it read
                assertThat(refused.executeBatch()).contains(Statement.EXECUTE_FAILED).doesNotContain(1);
            }
        }
        if (target.testServer.isPresent()) {
            assertThat(target.testServer.get().rpcs).noneMatch(text -> text.contains(ScriptedHook.REFUSE));
        }
    }
}
