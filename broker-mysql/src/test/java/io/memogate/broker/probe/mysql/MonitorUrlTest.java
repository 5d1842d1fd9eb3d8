package io.memogate.broker.probe.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Optional;

import org.junit.jupiter.api.Test;

class MonitorUrlTest {

    @Test
    void tcpWithEachTlsMode() {
        assertThat(MonitorUrl.of("db", 3306, MonitorUrl.Tls.DISABLE, Optional.empty()))
                .isEqualTo("jdbc:mariadb://db:3306/?sslMode=disable");
        assertThat(MonitorUrl.of("::1", 3306, MonitorUrl.Tls.ENCRYPT, Optional.empty()))
                .isEqualTo("jdbc:mariadb://[::1]:3306/?sslMode=trust");
        assertThat(MonitorUrl.of("db", 3307, MonitorUrl.Tls.VERIFY_FULL, Optional.of(Path.of("/etc/ca bundle.pem"))))
                .isEqualTo("jdbc:mariadb://db:3307/?sslMode=verify-full&serverSslCert=/etc/ca bundle.pem");
        assertThatThrownBy(() -> MonitorUrl.of("db", 3306, MonitorUrl.Tls.VERIFY_FULL, Optional.empty()))
                .hasMessageContaining("verify-full needs the trusted certificates");
    }
}
