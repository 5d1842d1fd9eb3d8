package io.memogate.broker.probe.sqlserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

/** The URLs as mssql-jdbc itself reads them (Driver.getPropertyInfo parses a URL without connecting). */
class SqlServerUrlTest {

    @Test
    void plainLoginOnlyEncryption() throws SQLException {
        Map<String, String> read = driverReads(SqlServerUrl.of("db.example", 1433, SqlServerUrl.Tls.OFF, Optional.empty()));

        assertThat(read).containsEntry("serverName", "db.example").containsEntry("portNumber", "1433")
                .containsEntry("encrypt", "False");
    }

    @Test
    void anIpv6AddressStaysOneValue() throws SQLException {
        Map<String, String> read = driverReads(SqlServerUrl.of("fd00::5", 14330, SqlServerUrl.Tls.ENCRYPT, Optional.empty()));

        assertThat(read).containsEntry("serverName", "fd00::5").containsEntry("portNumber", "14330")
                .containsEntry("encrypt", "True").containsEntry("trustServerCertificate", "true");
    }

    @Test
    void verifyFullChecksTheCertificateAgainstTheServerName() throws SQLException {
        Map<String, String> read = driverReads(SqlServerUrl.of("10.0.0.5", 1433, SqlServerUrl.Tls.VERIFY_FULL,
                Optional.of("sql.corp.example")));

        assertThat(read).containsEntry("serverName", "10.0.0.5").containsEntry("encrypt", "True")
                .containsEntry("trustServerCertificate", "false")
                .containsEntry("hostNameInCertificate", "sql.corp.example");
    }

    private static Map<String, String> driverReads(String url) throws SQLException {
        DriverPropertyInfo[] properties = DriverManager.getDriver(url).getPropertyInfo(url, new Properties());
        return Arrays.stream(properties).filter(p -> p.value != null)
                .collect(Collectors.toMap(p -> p.name, p -> p.value, (a, b) -> a));
    }
}
