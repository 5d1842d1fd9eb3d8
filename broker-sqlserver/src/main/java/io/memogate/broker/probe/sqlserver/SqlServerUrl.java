package io.memogate.broker.probe.sqlserver;

import java.util.Objects;
import java.util.Optional;

/**
 * The monitoring connection's URL for mssql-jdbc, over TCP with TLS as the proxy reaches the same server. The
 * database is left out (the login's default one serves): everything the probe reads is server-wide. Values go
 * in braces, mssql-jdbc's escape, so an IPv6 address or a name with a semicolon stays one value.
 */
public final class SqlServerUrl {

    /** How the monitoring connection uses TLS (the driver's encrypt and trustServerCertificate). */
    public enum Tls {
        /**
         * {@code encrypt=false}: the login is encrypted when the server offers TLS, the rest is plain (TDS 7.4's
         * login-only encryption); a server that requires encryption encrypts everything.
         */
        OFF,
        /** Encrypted, the certificate not checked ({@code trustServerCertificate=true}). */
        ENCRYPT,
        /**
         * Encrypted, the chain checked against the JVM's trust store and the name against the certificate
         * ({@code hostNameInCertificate}). mssql-jdbc reads no PEM bundle: its own trust store, or a custom trust
         * manager that would skip its name check, are the only other ways in.
         */
        VERIFY_FULL
    }

    private SqlServerUrl() {
    }

    /** @param serverName the name to check the certificate against under {@link Tls#VERIFY_FULL}; host when empty */
    public static String of(String host, int port, Tls tls, Optional<String> serverName) {
        Objects.requireNonNull(tls, "tls");
        StringBuilder url = new StringBuilder("jdbc:sqlserver://;serverName=").append(braced(host))
                .append(";portNumber=").append(port);
        switch (tls) {
            case OFF -> url.append(";encrypt=false");
            case ENCRYPT -> url.append(";encrypt=true;trustServerCertificate=true");
            case VERIFY_FULL -> url.append(";encrypt=true;trustServerCertificate=false;hostNameInCertificate=")
                    .append(braced(serverName.orElse(host)));
        }
        return url.toString();
    }

    /** {@code {value}}, a closing brace doubled as mssql-jdbc reads it. */
    private static String braced(String value) {
        return "{" + value.replace("}", "}}") + "}";
    }
}
