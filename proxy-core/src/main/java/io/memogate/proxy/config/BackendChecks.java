package io.memogate.proxy.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/** The checks of one backend's settings: its name, address, databases, Unix socket and TLS. */
final class BackendChecks {

    private static final Pattern BACKEND_NAME = Pattern.compile("[A-Za-z0-9_.-]+");

    private BackendChecks() {
    }

    static void validate(BackendConfig backend, String path, Problems problems) {
        if (backend.name().isBlank()) {
            problems.add(path + ".name", path + ".name is required");
        } else if (!BACKEND_NAME.matcher(backend.name()).matches()) {
            problems.add(path + ".name", path + ".name must consist of letters, digits, '_', '.' and '-', was '"
                    + backend.name() + "'");
        }
        if (backend.host().isBlank()) {
            problems.add(path + ".host", path + ".host is required");
        }
        ConfigValidator.checkPort(problems, path + ".port", backend.port(), 1);
        List<String> databases = backend.databases();
        for (int d = 0; d < databases.size(); d++) {
            String database = databases.get(d);
            if (database.isBlank()) {
                problems.add(path + ".databases[" + d + "]", path + ".databases[" + d + "] must not be empty");
            } else if (databases.indexOf(database) < d && databases.lastIndexOf(database) == d) {
                problems.add(path + ".databases", path + ".databases lists '" + database + "' more than once");
            }
        }
        if (databases.isEmpty() && !backend.isDefault()) {
            problems.add(path, path + " ('" + backend.name() + "') lists no databases and is not the default, "
                    + "so no client can reach it");
        }
        validateBackendTls(backend.tls(), path + ".tls", problems);
        backend.unixSocket().ifPresent(socket -> validateUnixSocket(backend, socket, path, problems));
    }

    /**
     * A backend reached through its Unix socket. The socket's path must fit the address a connect takes;
     * and TLS cannot be required: PostgreSQL answers an SSLRequest on a Unix socket with 'N', so libpq, and
     * the proxy with it, does not ask (prefer then means plain, as it does in libpq).
     */
    private static void validateUnixSocket(BackendConfig backend, Path socket, String path, Problems problems) {
        ConfigValidator.checkSocketPath(problems, path + ".host", socket);
        TlsMode mode = backend.tls().mode();
        if (mode == TlsMode.REQUIRE || mode == TlsMode.VERIFY_FULL) {
            problems.add(path + ".tls.mode", path + ".tls.mode is " + mode.configName() + ", but " + path
                    + ".host names a Unix socket directory, and PostgreSQL does not use TLS on Unix sockets: set it to prefer or"
                    + " disable, or name the server's TCP host");
        }
    }

    private static void validateBackendTls(BackendTlsConfig tls, String path, Problems problems) {
        boolean verifies = tls.mode() == TlsMode.VERIFY_FULL;
        Optional<Path> trusted = tls.trustedCertificates();
        if (verifies && trusted.isEmpty()) {
            problems.add(path + ".trustedCertificates",
                    path + ".trustedCertificates is required when mode is verify-full");
        }
        // Settings that would be silently ignored are errors: a user who names a CA bundle expects it
        // to be checked, and only verify-full checks it.
        if (!verifies && trusted.isPresent()) {
            problems.add(path + ".trustedCertificates", path + ".trustedCertificates is only used when mode is "
                    + "verify-full, but mode is " + tls.mode());
        }
        if (!verifies && tls.serverName().isPresent()) {
            problems.add(path + ".serverName", path + ".serverName is only used when mode is verify-full, "
                    + "but mode is " + tls.mode());
        }
        if (tls.serverName().filter(String::isBlank).isPresent()) {
            problems.add(path + ".serverName", path + ".serverName must not be empty");
        }
        if (tls.strict() && tls.mode() != TlsMode.REQUIRE && !verifies) {
            problems.add(path + ".strict", path + ".strict (TDS 8.0: TLS before anything else) encrypts always: it "
                    + "needs mode require or verify-full, but mode is " + tls.mode());
        }
        trusted.ifPresent(file -> ConfigValidator.checkFile(problems, path + ".trustedCertificates", file));
    }
}
