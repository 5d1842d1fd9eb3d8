package io.memogate.broker.probe.mysql;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * The monitoring connection's URL for mariadb-java-client, which reaches MariaDB and MySQL alike, over TCP with
 * TLS as the proxy reaches the same server. The database is left out: everything the probe reads is
 * server-wide. (The driver reaches a Unix socket only with JNA on the class path, which the proxy does not
 * ship: a backend behind a socket is probed over TCP.)
 */
public final class MonitorUrl {

    /** How the monitoring connection uses TLS (the driver's sslMode). */
    public enum Tls {
        /** Plain TCP ({@code sslMode=disable}). */
        DISABLE,
        /** Encrypted, the certificate not checked ({@code sslMode=trust}): the driver has no "if offered". */
        ENCRYPT,
        /** The chain checked against a bundle and the host name against the certificate ({@code verify-full}). */
        VERIFY_FULL
    }

    private MonitorUrl() {
    }

    /**
     * @param trustedCertificates the PEM bundle to check the server's certificate against; required for
     *                            {@link Tls#VERIFY_FULL}, ignored otherwise
     */
    public static String of(String host, int port, Tls tls, Optional<Path> trustedCertificates) {
        Objects.requireNonNull(tls, "tls");
        String address = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        StringBuilder url = new StringBuilder("jdbc:mariadb://").append(address).append(':').append(port).append('/');
        url.append("?sslMode=").append(switch (tls) {
            case DISABLE -> "disable";
            case ENCRYPT -> "trust";
            case VERIFY_FULL -> "verify-full";
        });
        if (tls == Tls.VERIFY_FULL) {
            Path bundle = trustedCertificates.orElseThrow(
                    () -> new IllegalArgumentException("verify-full needs the trusted certificates"));
            // The driver reads option values as they stand, without URL-decoding them.
            if (bundle.toString().contains("&")) {
                throw new IllegalArgumentException("the trusted certificates' path must not contain '&': " + bundle);
            }
            url.append("&serverSslCert=").append(bundle);
        }
        return url.toString();
    }
}
