package io.memogate.proxy.tds.it;

import io.memogate.proxy.admin.ClientView;
import io.memogate.proxy.config.BackendTlsConfig;
import io.memogate.proxy.config.ServerTlsConfig;
import io.memogate.proxy.postgres.embedded.SelfSignedCertificate;
import io.memogate.proxy.tds.it.TdsTestServer.Encryption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What the TDS wing's TLS tests stand on: a certificate for the proxy's listener and one for the test TDS server,
 * made once per test class, and per test a target encrypting as told, a proxy with the listener's TLS, and a wire
 * tap in front of the proxy that keeps what the client sent ({@link Legs}).
 */
final class TdsTlsSetup {

    final SelfSignedCertificate proxyCertificate;
    final SelfSignedCertificate serverCertificate;

    private TdsTlsSetup(SelfSignedCertificate proxyCertificate, SelfSignedCertificate serverCertificate) {
        this.proxyCertificate = proxyCertificate;
        this.serverCertificate = serverCertificate;
    }

    /** Both certificates, written below {@code directory}. */
    static TdsTlsSetup in(Path directory) throws Exception {
        return new TdsTlsSetup(SelfSignedCertificate.generate(Files.createDirectory(directory.resolve("proxy"))),
                SelfSignedCertificate.generate(Files.createDirectory(directory.resolve("server"))));
    }

    /** The listener's TLS with the proxy's certificate. */
    Optional<ServerTlsConfig> listenerTls() {
        return Optional.of(new ServerTlsConfig(proxyCertificate.certificateFile(), proxyCertificate.keyFile()));
    }

    /** The target (the real server named, else a test server encrypting as {@code server} says), proxy and tap. */
    Legs start(Encryption server, Optional<ServerTlsConfig> listener, BackendTlsConfig backend) throws Exception {
        TdsTarget target = TdsTarget.open(server, serverCertificate);
        TdsProxy proxy = null;
        try {
            proxy = TdsProxy.withTls(target, listener, backend);
            return new Legs(target, proxy, new WireTap(proxy.port()));
        } catch (Exception | Error e) {
            if (proxy != null) {
                proxy.close();
            }
            target.close();
            throw e;
        }
    }

    /** One test's target, proxy and the tap a client connects to; closed together. */
    record Legs(TdsTarget target, TdsProxy proxy, WireTap tap) implements AutoCloseable {

        /** The one session SHOW CLIENTS lists. */
        ClientView onlySession() throws Exception {
            List<ClientView> clients = proxy.clients();
            org.assertj.core.api.Assertions.assertThat(clients).hasSize(1);
            return clients.getFirst();
        }

        @Override
        public void close() throws Exception {
            tap.close();
            proxy.close();
            target.close();
        }
    }
}
