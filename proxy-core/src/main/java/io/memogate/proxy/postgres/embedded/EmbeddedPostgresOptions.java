package io.memogate.proxy.postgres.embedded;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * How to start an {@link EmbeddedPostgres}. Immutable and validated once; build one with
 * {@link #builder()} or start from {@link #defaults()}.
 *
 * @param port             TCP port on 127.0.0.1; 0 picks a free one
 * @param settings         server settings passed as {@code -c name=value}, in order
 * @param tls              certificate and key to serve TLS with; empty leaves {@code ssl = off}
 * @param hbaLines         the whole pg_hba.conf, one rule per line
 * @param startTimeout     how long initdb may run, and how long the server may take to accept
 *                         connections, before start() fails
 * @param workDirectory    parent of the binaries cache and of each instance's temporary directory
 * @param unprivilegedUser the account initdb and postgres run as when the JVM runs as root
 */
public record EmbeddedPostgresOptions(
        int port,
        Map<String, String> settings,
        Optional<ServerTls> tls,
        List<String> hbaLines,
        Duration startTimeout,
        Path workDirectory,
        String unprivilegedUser) {

    /**
     * Who may log in how. {@code host} rules match TCP with and without TLS. The {@code md5} method
     * authenticates a SCRAM-stored password with SCRAM-SHA-256 and an MD5-stored one with md5, so one
     * rule covers both kinds of user; two reserved role names get trust and cleartext password auth so
     * that a proxy can be tested against every method the server offers. The Unix socket has the same
     * rules, so that a proxy reaching the server there is tested the same way (a proxy's clients all
     * arrive as the proxy's local connections: trust there would let any of them in), and trust for the
     * superuser only.
     */
    public static final List<String> DEFAULT_HBA = List.of(
            "local all postgres trust",
            "local all memogate_trust trust",
            "local all memogate_plain password",
            "local all all md5",
            "host all memogate_trust 127.0.0.1/32 trust",
            "host all memogate_plain 127.0.0.1/32 password",
            "host all all 127.0.0.1/32 md5");

    /**
     * The cluster is thrown away on close, so durability buys nothing and costs seconds in schema
     * loads. SCRAM is named explicitly because the MD5 users of the tests depend on it being the default.
     */
    public static final Map<String, String> DEFAULT_SETTINGS = orderedMap(
            "password_encryption", "scram-sha-256",
            "fsync", "off",
            "synchronous_commit", "off",
            "full_page_writes", "off");

    /** Settings the server start derives from other options; setting them directly would contradict those. */
    private static final Set<String> DERIVED = Set.of("port", "listen_addresses", "unix_socket_directories");
    private static final Set<String> DERIVED_FROM_TLS = Set.of("ssl", "ssl_cert_file", "ssl_key_file");
    private static final Pattern SETTING_NAME = Pattern.compile("[a-z_][a-z0-9_]*(\\.[a-z_][a-z0-9_]*)?");

    public EmbeddedPostgresOptions {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be in [0, 65535] (0 picks a free port), was " + port);
        }
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(tls, "tls");
        for (Map.Entry<String, String> setting : settings.entrySet()) {
            String name = setting.getKey();
            if (name == null || !SETTING_NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("settings: '" + name + "' is not a lower-case setting name");
            }
            Objects.requireNonNull(setting.getValue(), "settings." + name);
            if (DERIVED.contains(name)) {
                throw new IllegalArgumentException("settings." + name + " is set by the embedded server itself;"
                        + " use the port option instead");
            }
            if (tls.isPresent() && DERIVED_FROM_TLS.contains(name)) {
                throw new IllegalArgumentException("settings." + name + " conflicts with the tls option");
            }
        }
        settings = Collections.unmodifiableMap(new LinkedHashMap<>(settings));
        hbaLines = List.copyOf(Objects.requireNonNull(hbaLines, "hbaLines"));
        if (hbaLines.isEmpty()) {
            throw new IllegalArgumentException("hbaLines must not be empty: nobody could log in");
        }
        Objects.requireNonNull(startTimeout, "startTimeout");
        if (startTimeout.isNegative() || startTimeout.isZero()) {
            throw new IllegalArgumentException("startTimeout must be positive, was " + startTimeout);
        }
        Objects.requireNonNull(workDirectory, "workDirectory");
        if (unprivilegedUser == null || unprivilegedUser.isBlank()) {
            throw new IllegalArgumentException("unprivilegedUser must name an operating-system user");
        }
    }

    public static EmbeddedPostgresOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding these options, to change a few of them. */
    public Builder toBuilder() {
        Builder builder = new Builder().port(port).hbaLines(hbaLines).startTimeout(startTimeout)
                .workDirectory(workDirectory).unprivilegedUser(unprivilegedUser);
        builder.settings.clear();
        builder.settings.putAll(settings);
        builder.tls = tls.orElse(null);
        return builder;
    }

    private static Map<String, String> orderedMap(String... namesAndValues) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            map.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return Collections.unmodifiableMap(map);
    }

    /** Mutable companion of the record; {@link #build()} validates. */
    public static final class Builder {
        private int port;
        private final Map<String, String> settings = new LinkedHashMap<>(DEFAULT_SETTINGS);
        private ServerTls tls;
        private List<String> hbaLines = DEFAULT_HBA;
        private Duration startTimeout = Duration.ofSeconds(60);
        private Path workDirectory = Path.of(System.getProperty("java.io.tmpdir"));
        private String unprivilegedUser = "nobody";

        private Builder() {
        }

        public Builder port(int port) {
            this.port = port;
            return this;
        }

        /** Adds or replaces one server setting (the defaults are {@link #DEFAULT_SETTINGS}). */
        public Builder setting(String name, String value) {
            settings.put(name, value);
            return this;
        }

        /** Serves TLS with this certificate chain and private key (PEM files). */
        public Builder tls(Path certificateFile, Path keyFile) {
            this.tls = new ServerTls(certificateFile, keyFile);
            return this;
        }

        public Builder hbaLines(List<String> hbaLines) {
            this.hbaLines = new ArrayList<>(hbaLines);
            return this;
        }

        public Builder startTimeout(Duration startTimeout) {
            this.startTimeout = startTimeout;
            return this;
        }

        public Builder workDirectory(Path workDirectory) {
            this.workDirectory = workDirectory;
            return this;
        }

        public Builder unprivilegedUser(String unprivilegedUser) {
            this.unprivilegedUser = unprivilegedUser;
            return this;
        }

        public EmbeddedPostgresOptions build() {
            return new EmbeddedPostgresOptions(port, settings, Optional.ofNullable(tls), hbaLines, startTimeout,
                    workDirectory, unprivilegedUser);
        }
    }
}
