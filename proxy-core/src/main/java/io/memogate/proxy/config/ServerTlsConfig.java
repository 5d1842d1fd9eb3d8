package io.memogate.proxy.config;

import java.nio.file.Path;
import java.util.Objects;

/**
 * TLS termination on a listener, for clients that open with SSLRequest (PostgreSQL protocol, "SSL
 * Session Encryption"). Paths are absolute once loaded: {@link ConfigLoader} resolves relative ones
 * against the configuration file's directory.
 *
 * @param certificate the server certificate chain, PEM, leaf first
 * @param privateKey the certificate's private key, PEM, PKCS#8 ({@code BEGIN PRIVATE KEY}) or PKCS#1
 *     ({@code BEGIN RSA PRIVATE KEY}), unencrypted
 */
public record ServerTlsConfig(Path certificate, Path privateKey) {

    public ServerTlsConfig {
        Objects.requireNonNull(certificate, "certificate");
        Objects.requireNonNull(privateKey, "privateKey");
    }
}
