package io.memogate.proxy.it.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.memogate.broker.probe.ProbeException;
import io.memogate.broker.probe.ProbeSettings;
import io.memogate.broker.probe.mysql.MonitorUrl;
import io.memogate.broker.probe.mysql.MySqlProbe;
import io.memogate.proxy.mysql.it.PrivateMariaDb;
import io.memogate.proxy.postgres.embedded.SelfSignedCertificate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MySQL probe's monitoring connection under TLS, with the URL {@link MonitorUrl} makes from a backend's
 * settings, against a private MariaDB started with a certificate: verify-full accepts the server's own
 * certificate and refuses another, so the broker checks the server as the proxy's connections do.
 */
class MySqlProbeTlsIT {

    @Test
    void verifyFullChecksTheServersCertificate(@TempDir Path dir) throws Exception {
        String missing = PrivateMariaDb.missing();
        assumeTrue(missing.isEmpty(), missing);
        SelfSignedCertificate server = SelfSignedCertificate.generate(Files.createDirectory(dir.resolve("server")));
        SelfSignedCertificate other = SelfSignedCertificate.generate(Files.createDirectory(dir.resolve("other")));
        try (PrivateMariaDb db = PrivateMariaDb.start(List.of("--ssl-cert=" + server.certificateFile(),
                "--ssl-key=" + server.keyFile()))) {
            try (MySqlProbe probe = probe(db, MonitorUrl.Tls.VERIFY_FULL, server.certificateFile())) {
                assertThat(probe.probe().version().text()).contains("MariaDB");
            }
            try (MySqlProbe probe = probe(db, MonitorUrl.Tls.ENCRYPT, other.certificateFile())) {
                assertThat(probe.probe().version().text()).as("encrypted, nothing checked").contains("MariaDB");
            }
            try (MySqlProbe probe = probe(db, MonitorUrl.Tls.VERIFY_FULL, other.certificateFile())) {
                assertThatThrownBy(probe::probe).isInstanceOf(ProbeException.class)
                        .hasMessageContaining("cannot connect to jdbc:mariadb://127.0.0.1:" + db.port());
            }
        }
    }

    private static MySqlProbe probe(PrivateMariaDb db, MonitorUrl.Tls tls, Path trusted) {
        String url = MonitorUrl.of("127.0.0.1", db.port(), tls, Optional.of(trusted));
        return new MySqlProbe(new ProbeSettings(url, PrivateMariaDb.USER, PrivateMariaDb.PASSWORD, false,
                Duration.ofSeconds(10)), System::nanoTime);
    }
}
