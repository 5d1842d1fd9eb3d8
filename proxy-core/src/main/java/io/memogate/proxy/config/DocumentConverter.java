package io.memogate.proxy.config;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * Turns the bound {@link ConfigDocument} into records: applies defaults, parses numbers, sizes,
 * durations, booleans and TLS modes, and resolves relative paths against the configuration file's
 * directory. A value that cannot be parsed is recorded as a problem and replaced by its default, so
 * that the validator can still check everything else; the problems make sure such a result is never
 * used.
 */
final class DocumentConverter {

    private final Path baseDirectory;
    private final Problems problems;

    DocumentConverter(Path baseDirectory, Problems problems) {
        this.baseDirectory = baseDirectory;
        this.problems = problems;
    }

    List<ListenerConfig> listeners(List<ConfigDocument.Listener> listeners) {
        if (listeners == null) { // key left out, or given no value: one listener on the default address
            return List.of(ListenerConfig.defaults());
        }
        return convertAll("listeners", listeners, this::listener,
                // Port 0 is never reported as a duplicate address, so the stand-in adds no problem.
                ListenerConfig.of(ListenerConfig.DEFAULT_HOST, 0));
    }

    List<BackendConfig> backends(List<ConfigDocument.Backend> backends) {
        if (backends == null) {
            problems.add("backends", "backends is required: name at least one backend (name, host)");
            return List.of();
        }
        return convertAll("backends", backends, this::backend,
                // Its own problems (no name, unreachable) are under the reported path and so dropped.
                new BackendConfig("", "", BackendConfig.DEFAULT_PORT, List.of(), false, BackendTlsConfig.DEFAULT));
    }

    LimitsConfig limits(ConfigDocument.Limits limits) {
        if (limits == null) {
            return LimitsConfig.DEFAULTS;
        }
        String path = "limits.";
        long messageBytes = parse(path + "maxMessageBytes", limits.maxMessageBytes, ByteSize::parse,
                ByteSize.ofBytes(LimitsConfig.DEFAULT_MAX_MESSAGE_BYTES)).bytes();
        if (messageBytes > Integer.MAX_VALUE) {
            ConfigValidator.checkMaxMessageBytes(problems, path + "maxMessageBytes", messageBytes);
            messageBytes = LimitsConfig.DEFAULT_MAX_MESSAGE_BYTES;
        }
        Duration connectTimeout = parse(path + "connectTimeout", limits.connectTimeout, Durations::parse,
                LimitsConfig.DEFAULT_CONNECT_TIMEOUT);
        Duration shutdownTimeout = parse(path + "shutdownTimeout", limits.shutdownTimeout, Durations::parse,
                LimitsConfig.DEFAULT_SHUTDOWN_TIMEOUT);
        long connections = whole(path + "maxClientConnections", limits.maxClientConnections,
                LimitsConfig.DEFAULT_MAX_CLIENT_CONNECTIONS);
        if (connections != (int) connections) {
            ConfigValidator.checkMaxClientConnections(problems, path + "maxClientConnections", connections);
            connections = LimitsConfig.DEFAULT_MAX_CLIENT_CONNECTIONS;
        }
        return new LimitsConfig((int) messageBytes, connectTimeout, shutdownTimeout, (int) connections);
    }

    AdminConfig admin(ConfigDocument.Admin admin) {
        if (admin == null || admin.http == null) {
            return AdminConfig.DEFAULTS;
        }
        ConfigDocument.AdminHttp http = admin.http;
        String host = http.host == null ? AdminHttpConfig.DEFAULT_HOST : http.host;
        int port = port("admin.http.port", http.port, AdminHttpConfig.DEFAULT_PORT, 0);
        boolean enabled = parse("admin.http.enabled", http.enabled, DocumentConverter::bool, true);
        return new AdminConfig(new AdminHttpConfig(host, port, enabled));
    }

    private ListenerConfig listener(String path, ConfigDocument.Listener doc) {
        String host = doc.host == null ? ListenerConfig.DEFAULT_HOST : doc.host;
        int port = port(path + ".port", doc.port, ListenerConfig.DEFAULT_PORT, 0);
        Optional<ServerTlsConfig> tls = Optional.empty();
        if (doc.tls != null) {
            Optional<Path> certificate = requiredPath(path + ".tls.certificate", doc.tls.certificate);
            Optional<Path> privateKey = requiredPath(path + ".tls.privateKey", doc.tls.privateKey);
            if (certificate.isPresent() && privateKey.isPresent()) {
                tls = Optional.of(new ServerTlsConfig(certificate.get(), privateKey.get()));
            }
        }
        return new ListenerConfig(host, port, tls);
    }

    private BackendConfig backend(String path, ConfigDocument.Backend doc) {
        List<String> databases = doc.databases == null ? List.of()
                : doc.databases.stream().map(d -> d == null ? "" : d).toList();
        int port = port(path + ".port", doc.port, BackendConfig.DEFAULT_PORT, 1);
        // A backend that lists no databases can only be meant as the default.
        boolean isDefault = parse(path + ".default", doc.isDefault, DocumentConverter::bool, databases.isEmpty());
        return new BackendConfig(orEmpty(doc.name), orEmpty(doc.host), port, databases, isDefault,
                backendTls(path + ".tls", doc.tls));
    }

    private BackendTlsConfig backendTls(String path, ConfigDocument.BackendTls doc) {
        if (doc == null) {
            return BackendTlsConfig.DEFAULT;
        }
        TlsMode mode = parse(path + ".mode", doc.mode, DocumentConverter::tlsMode, TlsMode.PREFER);
        return new BackendTlsConfig(mode, optionalPath(path + ".trustedCertificates", doc.trustedCertificates),
                Optional.ofNullable(doc.serverName));
    }

    /**
     * Converts each element; a null element (a bare "-" in YAML) is reported and replaced by a stand-in,
     * so that later elements keep their index in messages and the stand-in's own problems, being under
     * the reported path, are dropped.
     */
    private <D, R> List<R> convertAll(String path, List<D> docs, Converter<D, R> converter, R standIn) {
        List<R> result = new ArrayList<>(docs.size());
        for (int i = 0; i < docs.size(); i++) {
            String elementPath = path + "[" + i + "]";
            if (docs.get(i) == null) {
                problems.add(elementPath, elementPath + " is empty");
                result.add(standIn);
            } else {
                result.add(converter.convert(elementPath, docs.get(i)));
            }
        }
        return result;
    }

    private int port(String path, String text, int defaultPort, int min) {
        long port = whole(path, text, defaultPort);
        if (port != (int) port) {
            ConfigValidator.checkPort(problems, path, port, min);
            return defaultPort;
        }
        return (int) port;
    }

    private long whole(String path, String text, long defaultValue) {
        return parse(path, text, t -> {
            try {
                return Long.parseLong(t.strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("must be a whole number, was '" + t + "'", e);
            }
        }, defaultValue);
    }

    private Optional<Path> requiredPath(String path, String text) {
        if (text == null || text.isBlank()) {
            problems.add(path, path + " is required");
            return Optional.empty();
        }
        return optionalPath(path, text);
    }

    private Optional<Path> optionalPath(String path, String text) {
        if (text == null) {
            return Optional.empty();
        }
        return Optional.ofNullable(parse(path, text, t -> baseDirectory.resolve(t).normalize(), null));
    }

    /**
     * {@code text} parsed, {@code defaultValue} when it is absent, and also when it is bad, after the
     * parser's message has been recorded under {@code path}.
     */
    private <T> T parse(String path, String text, Function<String, T> parser, T defaultValue) {
        if (text == null) {
            return defaultValue;
        }
        try {
            return parser.apply(text);
        } catch (IllegalArgumentException e) { // InvalidPathException is one
            String reason = e instanceof InvalidPathException ? "is not a valid path: " + e.getMessage()
                    : e.getMessage();
            // "must be ..." continues the path as a sentence; "'12XB' is not a size" follows a colon.
            problems.add(path, path + (reason.startsWith("must ") || reason.startsWith("is ") ? " " : ": ") + reason);
            return defaultValue;
        }
    }

    private static boolean bool(String text) {
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("must be true or false, was '" + text + "'");
        };
    }

    private static TlsMode tlsMode(String text) {
        return TlsMode.fromConfigName(text.strip()).orElseThrow(() -> new IllegalArgumentException(
                "must be one of " + TlsMode.configNames() + ", was '" + text + "'"));
    }

    private static String orEmpty(String text) {
        return text == null ? "" : text;
    }

    @FunctionalInterface
    private interface Converter<D, R> {
        R convert(String path, D doc);
    }
}
