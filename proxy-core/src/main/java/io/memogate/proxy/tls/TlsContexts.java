package io.memogate.proxy.tls;

import io.memogate.proxy.config.BackendTlsConfig;
import io.memogate.proxy.config.ServerTlsConfig;
import io.memogate.proxy.config.TlsMode;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;
import javax.net.ssl.SSLException;

/** Builds Netty {@link SslContext}s from the TLS sections of the configuration. */
public final class TlsContexts {

    private TlsContexts() {}

    /** TLS termination for clients that send SSLRequest to a listener. */
    public static SslContext forListener(ServerTlsConfig tls) {
        try {
            return SslContextBuilder.forServer(tls.certificate().toFile(), tls.privateKey().toFile()).build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new IllegalStateException("cannot load the listener's TLS certificate " + tls.certificate()
                    + " and key " + tls.privateKey() + ": " + e.getMessage(), e);
        }
    }

    /**
     * TLS to a backend. prefer and require encrypt without checking the certificate, as libpq's modes
     * of the same names do; verify-full checks the chain against the configured trust bundle and the
     * host name. Empty for disable.
     */
    public static Optional<SslContext> forBackend(BackendTlsConfig tls) {
        if (tls.mode() == TlsMode.DISABLE) {
            return Optional.empty();
        }
        try {
            SslContextBuilder builder = SslContextBuilder.forClient();
            if (tls.mode() == TlsMode.VERIFY_FULL) {
                builder.trustManager(tls.trustedCertificates()
                        .orElseThrow(() -> new IllegalStateException("verify-full needs trustedCertificates"))
                        .toFile());
                builder.endpointIdentificationAlgorithm("HTTPS");
            } else {
                builder.trustManager(InsecureTrustManagerFactory.INSTANCE);
                builder.endpointIdentificationAlgorithm(null);
            }
            return Optional.of(builder.build());
        } catch (SSLException e) {
            throw new UncheckedIOException(new IOException("cannot build the backend TLS context: " + e.getMessage(), e));
        }
    }
}
