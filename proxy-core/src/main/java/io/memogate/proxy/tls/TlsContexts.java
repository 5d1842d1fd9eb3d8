package io.memogate.proxy.tls;

import io.memogate.proxy.config.BackendTlsConfig;
import io.memogate.proxy.config.ConfigException;
import io.memogate.proxy.config.ServerTlsConfig;
import io.memogate.proxy.config.TlsMode;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import javax.net.ssl.SSLException;

/**
 * Builds Netty {@link SslContext}s from the TLS sections of the configuration. The configuration checks
 * that the files exist and are readable; their contents are checked here, and a file that is not what
 * its field says is a {@link ConfigException} naming that field, like any other configuration mistake.
 */
public final class TlsContexts {

    /** The ALPN protocol name of TDS 8.0, which SQL Server 2022 offers to strict clients. */
    public static final String TDS8_ALPN_PROTOCOL = "tds/8.0";

    private TlsContexts() {}

    /**
     * TLS termination for clients of a listener, whether they send an SSLRequest first or start TLS
     * directly ({@link DirectTlsDetector}). ALPN offers "postgresql", as PostgreSQL 17 does; a client that
     * offers ALPN without it is refused in the handshake, as PostgreSQL refuses it.
     *
     * @param path the listener's TLS section as the file spells it, {@code listeners[0].tls}
     * @throws ConfigException naming {@code path.certificate} or {@code path.privateKey} when it cannot be loaded
     */
    public static SslContext forListener(ServerTlsConfig tls, String path) {
        return forServer(tls, path, builder -> builder.applicationProtocolConfig(new ApplicationProtocolConfig(
                ApplicationProtocolConfig.Protocol.ALPN, ApplicationProtocolConfig.SelectorFailureBehavior.FATAL_ALERT,
                ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT, DirectTlsDetector.ALPN_PROTOCOL)));
    }

    /**
     * TLS termination for the clients of a MySQL listener, after their SSLRequest: no ALPN, which neither
     * MySQL nor MariaDB uses.
     *
     * @param path the listener's TLS section as the file spells it, {@code listeners[0].tls}
     * @throws ConfigException naming {@code path.certificate} or {@code path.privateKey} when it cannot be loaded
     */
    public static SslContext forMySqlListener(ServerTlsConfig tls, String path) {
        return forServer(tls, path, UnaryOperator.identity());
    }

    /**
     * TLS termination for the clients of a TDS listener: without ALPN for the handshake a TDS 7.x client carries
     * in its PRELOGIN packets, and with ALPN {@code tds/8.0} ([MS-TDS] 2.2.6.5, TDS 8.0) for one that starts TLS
     * at once ({@code encrypt=strict}). A strict client that offers ALPN without it is refused in the handshake.
     *
     * @param path the listener's TLS section as the file spells it, {@code listeners[0].tls}
     * @throws ConfigException naming {@code path.certificate} or {@code path.privateKey} when it cannot be loaded
     */
    public static SslContext forTdsListener(ServerTlsConfig tls, String path, boolean strict) {
        return forServer(tls, path, strict ? builder -> builder.applicationProtocolConfig(alpn(TDS8_ALPN_PROTOCOL))
                : UnaryOperator.identity());
    }

    private static ApplicationProtocolConfig alpn(String protocol) {
        return new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                ApplicationProtocolConfig.SelectorFailureBehavior.FATAL_ALERT,
                ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT, protocol);
    }

    /** The certificates are checked first, so that a bad one is named as such rather than as a bad key. */
    private static SslContext forServer(ServerTlsConfig tls, String path, UnaryOperator<SslContextBuilder> configure) {
        checkCertificates(tls.certificate(), path + ".certificate");
        try {
            return configure.apply(SslContextBuilder.forServer(tls.certificate().toFile(), tls.privateKey().toFile()))
                    .build();
        } catch (IllegalArgumentException e) { // the certificates parsed above: it is the key
            throw problem(path + ".privateKey", tls.privateKey() + " is not an unencrypted PEM private key "
                    + "(-----BEGIN PRIVATE KEY----- or -----BEGIN RSA PRIVATE KEY-----)", e);
        } catch (SSLException e) {
            throw problem(path, "the certificate " + tls.certificate() + " and the key " + tls.privateKey()
                    + " cannot be used together", e);
        }
    }

    /**
     * TLS to a backend. prefer and require encrypt without checking the certificate, as libpq's modes
     * of the same names do; verify-full checks the chain against the configured trust bundle and the
     * host name. Empty for disable.
     *
     * @param path the backend's TLS section as the file spells it, {@code backends[0].tls}
     * @throws ConfigException naming {@code path.trustedCertificates} when the bundle cannot be loaded
     */
    public static Optional<SslContext> forBackend(BackendTlsConfig tls, String path) {
        return forBackend(tls, path, Optional.empty());
    }

    /**
     * TLS to a backend as {@link #forBackend(BackendTlsConfig, String)}, offering {@code alpn} in the handshake
     * (TDS 8.0's {@code tds/8.0}).
     */
    public static Optional<SslContext> forBackend(BackendTlsConfig tls, String path, Optional<String> alpn) {
        if (tls.mode() == TlsMode.DISABLE) {
            return Optional.empty();
        }
        SslContextBuilder builder = SslContextBuilder.forClient();
        alpn.ifPresent(protocol -> builder.applicationProtocolConfig(alpn(protocol)));
        if (tls.mode() == TlsMode.VERIFY_FULL) {
            Path trusted = tls.trustedCertificates()
                    .orElseThrow(() -> new IllegalStateException("verify-full needs trustedCertificates"));
            builder.trustManager(checkCertificates(trusted, path + ".trustedCertificates"));
            builder.endpointIdentificationAlgorithm("HTTPS");
        } else {
            builder.trustManager(InsecureTrustManagerFactory.INSTANCE);
            builder.endpointIdentificationAlgorithm(null);
        }
        try {
            return Optional.of(builder.build());
        } catch (SSLException e) {
            throw problem(path, "cannot build the TLS context", e);
        }
    }

    /**
     * {@code file}, once Netty's PEM reader found certificates in it: the same reader the context uses,
     * so that what is accepted here is what the context accepts.
     */
    private static File checkCertificates(Path file, String field) {
        try {
            SslContextBuilder.forClient().trustManager(file.toFile());
            return file.toFile();
        } catch (IllegalArgumentException e) {
            throw problem(field, file + " is not a PEM certificate file (-----BEGIN CERTIFICATE-----)", e);
        }
    }

    private static ConfigException problem(String field, String what, Exception cause) {
        Throwable root = cause;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        String why = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        ConfigException problem = new ConfigException(null, List.of(field + ": " + what + ": " + why));
        problem.initCause(cause);
        return problem;
    }
}
