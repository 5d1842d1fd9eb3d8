package io.memogate.proxy.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Every rule a configuration must satisfy, checked on the records so that a configuration built in code
 * obeys the same rules as one read from a file. Each message names the field path as the YAML file
 * spells it. Runs once per load or construction; it touches the file system only to check that TLS
 * files exist and are readable (their contents are checked when the TLS context is built).
 */
final class ConfigValidator {

    static final int MIN_MESSAGE_BYTES = 1024;
    /** PostgreSQL refuses longer messages itself (pqcomm.c, PQ_LARGE_MESSAGE_LIMIT = MaxAllocSize - 1). */
    static final int MAX_MESSAGE_BYTES = 1024 * 1024 * 1024;
    static final Duration MIN_CONNECT_TIMEOUT = Duration.ofMillis(1);
    /** Linux gives up on an unanswered SYN after about two minutes anyway (tcp_syn_retries = 6). */
    static final Duration MAX_CONNECT_TIMEOUT = Duration.ofHours(1);

    private static final Pattern BACKEND_NAME = Pattern.compile("[A-Za-z0-9_.-]+");

    private ConfigValidator() {
    }

    static void validate(List<ListenerConfig> listeners, List<BackendConfig> backends, LimitsConfig limits,
                         Problems problems) {
        validateListeners(listeners, problems);
        validateBackends(backends, problems);
        validateLimits(limits, problems);
    }

    private static void validateListeners(List<ListenerConfig> listeners, Problems problems) {
        if (listeners.isEmpty()) {
            problems.add("listeners", "listeners must name at least one listener (or be left out for "
                    + ListenerConfig.DEFAULT_HOST + ":" + ListenerConfig.DEFAULT_PORT + ")");
        }
        Map<String, List<String>> pathsByAddress = new LinkedHashMap<>();
        for (int i = 0; i < listeners.size(); i++) {
            ListenerConfig listener = listeners.get(i);
            String path = "listeners[" + i + "]";
            if (listener.host().isBlank()) {
                problems.add(path + ".host", path + ".host must not be empty");
            }
            checkPort(problems, path + ".port", listener.port(), 0);
            listener.tls().ifPresent(tls -> {
                checkFile(problems, path + ".tls.certificate", tls.certificate());
                checkFile(problems, path + ".tls.privateKey", tls.privateKey());
            });
            if (listener.port() != 0) { // ephemeral ports never collide
                pathsByAddress.computeIfAbsent(listener.address(), a -> new ArrayList<>()).add(path);
            }
        }
        pathsByAddress.forEach((address, paths) -> {
            if (paths.size() > 1) {
                problems.addGeneral("listeners: " + address + " is listed more than once ("
                        + String.join(", ", paths) + ")");
            }
        });
    }

    private static void validateBackends(List<BackendConfig> backends, Problems problems) {
        if (backends.isEmpty()) {
            problems.add("backends", "backends must name at least one backend");
        }
        Map<String, List<String>> pathsByName = new LinkedHashMap<>();
        Map<String, List<String>> backendsByDatabase = new LinkedHashMap<>();
        for (int i = 0; i < backends.size(); i++) {
            BackendConfig backend = backends.get(i);
            String path = "backends[" + i + "]";
            validateBackend(backend, path, problems);
            if (!backend.name().isBlank()) {
                pathsByName.computeIfAbsent(backend.name(), n -> new ArrayList<>()).add(path);
            }
            backend.databases().stream().distinct().filter(d -> !d.isBlank()).forEach(database ->
                    backendsByDatabase.computeIfAbsent(database, d -> new ArrayList<>()).add(backend.name()));
        }
        pathsByName.forEach((name, paths) -> {
            if (paths.size() > 1) {
                problems.addGeneral("backends: name '" + name + "' is used by more than one backend ("
                        + String.join(", ", paths) + ")");
            }
        });
        List<String> defaults = backends.stream().filter(BackendConfig::isDefault).map(BackendConfig::name).toList();
        if (defaults.size() > 1) {
            problems.addGeneral("backends: at most one backend may be default, found " + defaults.size()
                    + " (" + String.join(", ", defaults) + "); a backend that lists no databases is the "
                    + "default unless it says default: false");
        }
        backendsByDatabase.forEach((database, names) -> {
            if (names.size() > 1) {
                problems.addGeneral("backends: database '" + database + "' is routed to "
                        + (names.size() == 2 ? "both " : "") + quotedList(names));
            }
        });
    }

    private static void validateBackend(BackendConfig backend, String path, Problems problems) {
        if (backend.name().isBlank()) {
            problems.add(path + ".name", path + ".name is required");
        } else if (!BACKEND_NAME.matcher(backend.name()).matches()) {
            problems.add(path + ".name", path + ".name must consist of letters, digits, '_', '.' and '-', was '"
                    + backend.name() + "'");
        }
        if (backend.host().isBlank()) {
            problems.add(path + ".host", path + ".host is required");
        }
        checkPort(problems, path + ".port", backend.port(), 1);
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
        trusted.ifPresent(file -> checkFile(problems, path + ".trustedCertificates", file));
    }

    private static void validateLimits(LimitsConfig limits, Problems problems) {
        checkMaxMessageBytes(problems, "limits.maxMessageBytes", limits.maxMessageBytes());
        Duration connect = limits.connectTimeout();
        if (connect.compareTo(MIN_CONNECT_TIMEOUT) < 0 || connect.compareTo(MAX_CONNECT_TIMEOUT) > 0) {
            problems.add("limits.connectTimeout", "limits.connectTimeout must be between "
                    + Durations.format(MIN_CONNECT_TIMEOUT) + " and " + Durations.format(MAX_CONNECT_TIMEOUT)
                    + ", was " + Durations.format(connect));
        }
        if (limits.shutdownTimeout().isNegative()) {
            problems.add("limits.shutdownTimeout", "limits.shutdownTimeout must not be negative, was "
                    + Durations.format(limits.shutdownTimeout()));
        }
        checkMaxClientConnections(problems, "limits.maxClientConnections", limits.maxClientConnections());
    }

    /**
     * The admin endpoint's address. Checked against the listeners too: the endpoint and a listener on
     * one address would fail at start with a bind error that names neither setting.
     */
    static void validateAdmin(AdminConfig admin, List<ListenerConfig> listeners, Problems problems) {
        AdminHttpConfig http = admin.http();
        if (http.host().isBlank()) {
            problems.add("admin.http.host", "admin.http.host must not be empty");
        }
        checkPort(problems, "admin.http.port", http.port(), 0);
        if (!http.enabled() || http.port() == 0) { // ephemeral ports never collide
            return;
        }
        for (int i = 0; i < listeners.size(); i++) {
            if (listeners.get(i).address().equals(http.address())) {
                problems.addGeneral("admin.http: " + http.address() + " is also the address of listeners[" + i + "]");
            }
        }
    }

    // The range checks take a long so that the loader can report a number too large for an int with
    // the same message before it narrows it.

    static void checkPort(Problems problems, String path, long port, int min) {
        if (port < min || port > 65535) {
            problems.add(path, path + " must be in " + min + "..65535, was " + port);
        }
    }

    static void checkMaxMessageBytes(Problems problems, String path, long bytes) {
        if (bytes < MIN_MESSAGE_BYTES || bytes > MAX_MESSAGE_BYTES) {
            problems.add(path, path + " must be between " + ByteSize.ofBytes(MIN_MESSAGE_BYTES) + " and "
                    + ByteSize.ofBytes(MAX_MESSAGE_BYTES) + ", was " + sizeText(bytes));
        }
    }

    static void checkMaxClientConnections(Problems problems, String path, long connections) {
        if (connections < 1) {
            problems.add(path, path + " must be at least 1, was " + connections);
        } else if (connections > Integer.MAX_VALUE) {
            problems.add(path, path + " must be at most " + Integer.MAX_VALUE + ", was " + connections);
        }
    }

    /** A size as the user would write it; a negative one (only possible in code) as a plain number. */
    private static String sizeText(long bytes) {
        return bytes < 0 ? bytes + "B" : ByteSize.ofBytes(bytes).toString();
    }

    private static void checkFile(Problems problems, String path, Path file) {
        if (!Files.exists(file)) {
            problems.add(path, path + ": file not found: " + file);
        } else if (!Files.isRegularFile(file)) {
            problems.add(path, path + ": not a regular file: " + file);
        } else if (!Files.isReadable(file)) {
            problems.add(path, path + ": file is not readable: " + file);
        }
    }

    /** 'a', 'b' and 'c'. */
    private static String quotedList(List<String> names) {
        List<String> quoted = names.stream().map(n -> "'" + n + "'").toList();
        return quoted.size() == 1 ? quoted.get(0) : String.join(", ", quoted.subList(0, quoted.size() - 1))
                + " and " + quoted.get(quoted.size() - 1);
    }
}
