package io.memogate.proxy.tds.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.microsoft.sqlserver.jdbc.SQLServerException;
import io.memogate.proxy.testing.ScriptedHook;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The TDS wing in front of SQL Server 2022 in a container, where a Docker engine runs (skipped, saying so, where
 * none does): mssql-jdbc's statements and prepared statements run through the proxy, a refused batch is 8628 and
 * the session goes on. The other TDS suites run against the same server with {@code MEMOGATE_TEST_SQLSERVER=docker}.
 */
class ContainerSqlServerIT {

    private final ScriptedHook hook = new ScriptedHook();
    private TdsTarget target;
    private TdsProxy proxy;

    @BeforeEach
    void start() throws Exception {
        target = TdsTarget.container();
        proxy = TdsProxy.to(target, hook);
    }

    @AfterEach
    void stop() throws Exception {
        if (proxy != null) {
            proxy.close();
        }
        if (target != null) {
            target.close();
        }
    }

    @Test
    void statementsAndPreparedStatementsRunThroughTheProxy() throws Exception {
        try (Connection c = proxy.connect(""); Statement s = c.createStatement();
             ResultSet version = s.executeQuery("SELECT @@VERSION")) {
            assertThat(version.next()).isTrue();
            assertThat(version.getString(1)).contains("Microsoft SQL Server");
            try (PreparedStatement select = c.prepareStatement("SELECT COUNT(*) FROM sys.objects o1 "
                    + "JOIN sys.objects o2 ON o1.object_id = o2.parent_object_id WHERE o1.type = ?")) {
                select.setString(1, "U");
                try (ResultSet count = select.executeQuery()) {
                    assertThat(count.next()).isTrue();
                }
            }
        }
    }

    @Test
    void aRefusedBatchIs8628AndTheSessionGoesOn() throws Exception {
        try (Connection c = proxy.connect(""); Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.executeQuery("SELECT 1 AS n " + ScriptedHook.REFUSE))
                    .isInstanceOfSatisfying(SQLServerException.class, e -> assertThat(e.getErrorCode()).isEqualTo(8628));
            try (ResultSet row = s.executeQuery("SELECT 8 AS n")) {
                assertThat(row.next()).isTrue();
                assertThat(row.getInt(1)).isEqualTo(8);
            }
        }
    }
}
