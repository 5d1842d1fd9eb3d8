package io.memogate.proxy.tds.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.proxy.admin.ClientView;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An NTLM login through the proxy, which decides none: jTDS 1.3.1 (TDS 7.1) given a {@code domain}, and mssql-jdbc
 * 13.6 (TDS 7.4) with {@code authenticationScheme=NTLM}, do NTLMv2 themselves (no Windows needed), the NEGOTIATE
 * in LOGIN7's SSPI field, the test TDS server's CHALLENGE in an SSPI token, the AUTHENTICATE in an SSPI message. The test TDS server verifies the NTLMv2 response against the account's password
 * over the challenge and target information it sent, so a login that succeeds proves the messages went both ways
 * unchanged. Each case runs through the proxy and, as a control, with jTDS connected to the server directly.
 */
class TdsNtlmIT {

    @RegisterExtension
    final TdsBed bed = new TdsBed();

    /**
     * An NTLM login with {@code client} (jtds, or mssql-jdbc with {@code authenticationScheme=NTLM}, also pure Java).
     * jTDS hashes the domain upper-cased, [MS-NLMP] as given: an upper-case domain is the same to both.
     */
    private Connection connect(String client, boolean throughProxy, String password) throws SQLException {
        bed.target().recording(); // the account is the test TDS server's; a real server would need a Windows domain
        String hostPort = throughProxy ? "127.0.0.1:" + bed.proxy().port() : bed.target().host + ":" + bed.target().port;
        if (client.equals("jtds")) {
            return DriverManager.getConnection("jdbc:jtds:sqlserver://" + hostPort + "/" + bed.target().database
                    + ";ssl=off;loginTimeout=30;socketTimeout=60;useNTLMv2=true;domain=" + TestServerNtlm.DOMAIN,
                    TestServerNtlm.USER, password);
        }
        return DriverManager.getConnection("jdbc:sqlserver://" + hostPort + ";databaseName=" + bed.target().database
                + ";encrypt=false;loginTimeout=30;integratedSecurity=true;authenticationScheme=NTLM;domain="
                + TestServerNtlm.DOMAIN, TestServerNtlm.USER, password);
    }

    @ParameterizedTest(name = "{0}, through the proxy: {1}")
    @CsvSource({"jtds, true", "jtds, false", "mssql-jdbc, true", "mssql-jdbc, false"})
    void anNtlmv2LoginIsVerifiedByTheServerThenStatementsRun(String client, boolean throughProxy) throws Exception {
        try (Connection c = connect(client, throughProxy, TestServerNtlm.PASSWORD); Statement s = c.createStatement();
                ResultSet rows = s.executeQuery("SELECT 71 AS n")) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getInt(1)).isEqualTo(71);
            if (throughProxy) {
                assertThat(bed.proxy().clients()).extracting(ClientView::user).as("SHOW CLIENTS, from the AUTHENTICATE")
                        .containsExactly(TestServerNtlm.DOMAIN + "\\" + TestServerNtlm.USER);
            }
        }
        assertThat(bed.target().recording().logins).as("logged in as the Windows account, verified")
                .containsExactly(TestServerNtlm.DOMAIN + "\\" + TestServerNtlm.USER + "@" + bed.target().database);
        if (throughProxy) {
            assertThat(bed.hook.requests).extracting(request -> request.sql()).contains("SELECT 71 AS n");
        }
    }

    @ParameterizedTest(name = "{0}, through the proxy: {1}")
    @CsvSource({"jtds, true", "jtds, false", "mssql-jdbc, true", "mssql-jdbc, false"})
    void aWrongPasswordIsTheServersOwnError18456(String client, boolean throughProxy) {
        assertThatThrownBy(() -> connect(client, throughProxy, "not the password").close())
                .isInstanceOfSatisfying(SQLException.class, e -> {
                    assertThat(e.getErrorCode()).isEqualTo(18456);
                    assertThat(e.getMessage()).startsWith("Login failed for user '" + TestServerNtlm.DOMAIN + "\\"
                            + TestServerNtlm.USER + "'.");
                });
        assertThat(bed.target().recording().logins).isEmpty();
    }
}
