package io.memogate.proxy.config;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * TLS on the proxy's connections to one backend.
 *
 * @param mode how TLS is negotiated, {@link TlsMode#PREFER} unless configured (libpq's default too)
 * @param trustedCertificates PEM bundle of the certificates that may sign the server's chain; required
 *     by, and only used by, {@link TlsMode#VERIFY_FULL}
 * @param serverName the host name to verify the server certificate against, when it differs from the
 *     backend's {@code host} (e.g. the backend is reached by IP address); only used by VERIFY_FULL
 * @param strict SQL Server only: TDS 8.0 ({@code encrypt=strict}), TLS first on TCP with ALPN {@code tds/8.0}
 *     and PRELOGIN inside it, for a server that requires it (SQL Server 2022's Force Strict Encryption); needs
 *     mode require or verify-full
 */
public record BackendTlsConfig(TlsMode mode, Optional<Path> trustedCertificates, Optional<String> serverName,
                               boolean strict) {

    /** What a backend without a {@code tls} section gets: prefer TLS, verify nothing. */
    public static final BackendTlsConfig DEFAULT = of(TlsMode.PREFER);

    public BackendTlsConfig {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(trustedCertificates, "trustedCertificates");
        Objects.requireNonNull(serverName, "serverName");
    }

    public BackendTlsConfig(TlsMode mode, Optional<Path> trustedCertificates, Optional<String> serverName) {
        this(mode, trustedCertificates, serverName, false);
    }

    public static BackendTlsConfig of(TlsMode mode) {
        return new BackendTlsConfig(mode, Optional.empty(), Optional.empty());
    }

    /** Verify the server's chain against {@code trustedCertificates} and its name against the host. */
    public static BackendTlsConfig verifyFull(Path trustedCertificates) {
        return new BackendTlsConfig(TlsMode.VERIFY_FULL, Optional.of(trustedCertificates), Optional.empty());
    }

    public BackendTlsConfig withServerName(String serverName) {
        return new BackendTlsConfig(mode, trustedCertificates, Optional.of(serverName), strict);
    }

    /** The same TLS, with TDS 8.0 toward a SQL Server when {@code strict}. */
    public BackendTlsConfig withStrict(boolean strict) {
        return new BackendTlsConfig(mode, trustedCertificates, serverName, strict);
    }
}
