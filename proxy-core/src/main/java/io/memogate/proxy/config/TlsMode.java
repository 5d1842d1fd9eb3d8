package io.memogate.proxy.config;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * How the proxy uses TLS on its connection to a backend. The words and their meaning follow libpq's
 * {@code sslmode} (PostgreSQL docs, "SSL Support", table "SSL Mode Descriptions"), minus the modes the
 * proxy has no use for ({@code allow}, {@code verify-ca}).
 */
public enum TlsMode {
    /** Never send SSLRequest; talk plain TCP. */
    DISABLE("disable"),
    /** Send SSLRequest; use TLS if the server accepts it, plain TCP if it answers 'N'. No verification. */
    PREFER("prefer"),
    /** Send SSLRequest; fail if the server refuses. Encrypts but does not verify who answers. */
    REQUIRE("require"),
    /** As REQUIRE, and verify the server's certificate chain and host name against trusted certificates. */
    VERIFY_FULL("verify-full");

    private final String configName;

    TlsMode(String configName) {
        this.configName = configName;
    }

    /** The word used in the YAML file, e.g. {@code verify-full}. */
    public String configName() {
        return configName;
    }

    /** The mode spelled {@code word} in the YAML file (exact, lowercase, as libpq). */
    public static Optional<TlsMode> fromConfigName(String word) {
        return Arrays.stream(values()).filter(m -> m.configName.equals(word)).findFirst();
    }

    /** "disable, prefer, require, verify-full": for error messages. */
    static String configNames() {
        return Arrays.stream(values()).map(TlsMode::configName).collect(Collectors.joining(", "));
    }

    @Override
    public String toString() {
        return configName;
    }
}
