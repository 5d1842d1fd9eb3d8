package io.memogate.proxy.config;

import io.memogate.broker.gateway.GatewaySettings;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;

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
    static final Duration MIN_TIMEOUT = Duration.ofMillis(1);
    /**
     * For limits.connectTimeout and loginTimeout. Linux gives up on an unanswered SYN after about two
     * minutes anyway (tcp_syn_retries = 6); PostgreSQL's authentication_timeout stops at 10 minutes.
     */
    static final Duration MAX_TIMEOUT = Duration.ofHours(1);
    /**
     * A poll is several catalog queries on the server being protected; polling faster than this would
     * add load of its own without seeing a compile storm (which builds over seconds) any sooner.
     */
    static final Duration MIN_BROKER_INTERVAL = Duration.ofMillis(10);


    private ConfigValidator() {
    }

    /**
     * Every section's rules, in the order of the file. The one list both callers run: the loader, so
     * that these problems come out with the parsing ones and under the file's name, and
     * {@link MemogateConfig}'s constructor, so that a configuration built in code obeys them too. A
     * section checked by only one of them would be reported by the constructor alone, in a second
     * report after the first is fixed, without the file's name.
     */
    static void validate(List<ListenerConfig> listeners, List<BackendConfig> backends, LimitsConfig limits,
                         AdminConfig admin, AdmissionConfig admission, BrokerConfig broker, NetworkConfig network,
                         Problems problems) {
        validateListeners(listeners, problems);
        validateBackends(backends, problems);
        validateLimits(limits, problems);
        validateAdmin(admin, listeners, backends, problems);
        validateAdmission(admission, problems);
        validateBroker(broker, backends, problems);
        validateNetwork(network, problems);
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
            listener.unixSocket().ifPresent(socket -> validateUnixListener(listener, socket, path, problems));
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

    /**
     * A listener on a Unix socket: its directory must exist (the proxy makes the socket, not the directory),
     * its port names the socket, and TLS is not offered there: libpq never asks for it on a Unix socket.
     */
    private static void validateUnixListener(ListenerConfig listener, Path socket, String path, Problems problems) {
        checkSocketPath(problems, path + ".host", socket);
        if (!Files.isDirectory(socket.getParent())) {
            problems.add(path + ".host", path + ".host: directory not found: " + socket.getParent());
        }
        if (listener.port() == 0) {
            problems.add(path + ".port", path + ".port names the Unix socket (.s.PGSQL.<port>) clients look for, so"
                    + " it cannot be 0");
        }
        if (listener.tls().isPresent()) {
            problems.add(path + ".tls", path + ".tls cannot be used on a Unix socket: PostgreSQL clients do not ask"
                    + " for TLS there; leave it out, or listen on a TCP address for TLS");
        }
    }

    static void checkSocketPath(Problems problems, String field, Path socket) {
        if (!UnixSockets.fits(socket)) {
            problems.add(field, field + " names a Unix socket directory, but the socket's path " + socket + " is "
                    + UnixSockets.bytes(socket) + " bytes, over the " + UnixSockets.MAX_PATH_BYTES
                    + " a Unix socket address holds");
        }
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
            BackendChecks.validate(backend, path, problems);
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

    private static void validateLimits(LimitsConfig limits, Problems problems) {
        checkMaxMessageBytes(problems, "limits.maxMessageBytes", limits.maxMessageBytes());
        checkTimeout(problems, "limits.connectTimeout", limits.connectTimeout());
        checkTimeout(problems, "limits.loginTimeout", limits.loginTimeout());
        checkNotNegative(problems, "limits.shutdownTimeout", limits.shutdownTimeout());
        checkMaxClientConnections(problems, "limits.maxClientConnections", limits.maxClientConnections());
    }

    private static void checkTimeout(Problems problems, String path, Duration timeout) {
        checkDuration(problems, path, timeout, t -> t.compareTo(MIN_TIMEOUT) >= 0 && t.compareTo(MAX_TIMEOUT) <= 0,
                "must be between " + Durations.format(MIN_TIMEOUT) + " and " + Durations.format(MAX_TIMEOUT));
    }

    /**
     * The admin endpoint's address, and the console. The endpoint is checked against the listeners too:
     * the endpoint and a listener on one address would fail at start with a bind error that names neither
     * setting. Console users need a default backend: their logins are relayed to its server.
     */
    private static void validateAdmin(AdminConfig admin, List<ListenerConfig> listeners, List<BackendConfig> backends,
                                      Problems problems) {
        validateConsole(admin, backends, problems);
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

    private static void validateConsole(AdminConfig admin, List<BackendConfig> backends, Problems problems) {
        List<String> users = admin.users();
        for (int i = 0; i < users.size(); i++) {
            if (users.get(i).isBlank()) {
                problems.add("admin.users[" + i + "]", "admin.users[" + i + "] must not be empty");
            }
        }
        if (admin.authDatabase().isBlank()) {
            problems.add("admin.authDatabase", "admin.authDatabase must not be empty");
        }
        checkNotNegative(problems, "admin.watchInterval", admin.watchInterval());
        if (!users.isEmpty() && !backends.isEmpty() && backends.stream().noneMatch(BackendConfig::isDefault)) {
            problems.add("admin.users", "admin.users needs a default backend: console logins are authenticated "
                    + "by its server (database admin.authDatabase); set default: true on one backend");
        }
        for (int i = 0; i < backends.size(); i++) {
            if (backends.get(i).lists(AdminConfig.CONSOLE_DATABASE)) {
                problems.add("backends[" + i + "].databases", "backends[" + i + "].databases lists '"
                        + AdminConfig.CONSOLE_DATABASE + "', the name of the admin console, which the proxy serves "
                        + "itself; a server database of that name cannot be reached through the proxy");
            }
        }
    }

    /**
     * The admission section as far as its record can be wrong: the tiers are GatewaySettings', which
     * checks them when it is built (the loader checks them first, with their paths, see {@link #checkTier}).
     */
    private static void validateAdmission(AdmissionConfig admission, Problems problems) {
        checkCpus(problems, "admission.cpus", admission.cpus());
        checkNotNegative(problems, "admission.waitNotice", admission.waitNotice());
        checkNotNegative(problems, "admission.holdWhileRunning", admission.holdWhileRunning());
        checkStatementRecords(problems, "admission.statementRecords", admission.statementRecords());
    }

    /**
     * The broker section, and whether its monitor can reach a server: it watches the backend it names,
     * else every backend.
     */
    private static void validateBroker(BrokerConfig broker, List<BackendConfig> backends, Problems problems) {
        broker.monitor().ifPresent(monitor -> validateMonitor(monitor, backends, problems));
        checkDuration(problems, "broker.interval", broker.interval(), i -> i.compareTo(MIN_BROKER_INTERVAL) >= 0,
                "must be at least " + Durations.format(MIN_BROKER_INTERVAL));
        checkNotNegative(problems, "broker.gracePeriod", broker.gracePeriod());
        checkFraction(problems, "broker.compileShare", broker.compileShare());
        broker.hostMemoryBytes().ifPresent(bytes -> checkPositiveSize(problems, "broker.hostMemory", bytes));
        boolean sizesPositive = checkPositiveSize(problems, "broker.staticTarget", broker.staticTargetBytes())
                & checkPositiveSize(problems, "broker.minimumTarget", broker.minimumTargetBytes());
        if (sizesPositive && broker.minimumTargetBytes() > broker.staticTargetBytes()) {
            problems.add("broker.minimumTarget", "broker.minimumTarget must not be more than broker.staticTarget ("
                    + sizeText(broker.staticTargetBytes()) + "), was " + sizeText(broker.minimumTargetBytes()));
        }
    }

    private static void validateMonitor(MonitorConfig monitor, List<BackendConfig> backends, Problems problems) {
        String path = "broker.monitor.";
        if (monitor.user().isBlank()) {
            problems.add(path + "user", path + "user is required: the login role the broker monitors with, "
                    + "granted pg_monitor");
        }
        if (monitor.database().isBlank()) {
            problems.add(path + "database", path + "database must not be empty");
        }
        if (backends.isEmpty()) {
            return; // already reported; naming none of them again would add nothing
        }
        String names = backends.stream().map(BackendConfig::name).collect(Collectors.joining(", "));
        monitor.backend().ifPresent(name -> {
            if (backends.stream().noneMatch(b -> b.name().equals(name))) {
                problems.add(path + "backend", path + "backend must name a configured backend (" + names
                        + "), was '" + name + "'");
            }
        });
    }

    /**
     * One tier of {@code admission.tiers}, checked before GatewaySettings is built from it (which would
     * throw on the first bad value, naming it without the {@code admission.} prefix).
     *
     * @return whether every value is in range
     */
    static boolean checkTier(Problems problems, String path, long limit, double fraction, long maxQueue,
                             Duration timeout) {
        boolean valid = checkInt(problems, path + ".limit", limit, 1);
        valid &= checkFraction(problems, path + ".fraction", fraction);
        valid &= checkInt(problems, path + ".maxQueue", maxQueue, 0);
        valid &= checkDuration(problems, path + ".timeout", timeout, Duration::isPositive, "must be positive");
        return valid;
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
        checkInt(problems, path, connections, 1);
    }

    /** A whole number from {@code min} up to what an int holds. */
    static boolean checkInt(Problems problems, String path, long value, int min) {
        if (value < min) {
            problems.add(path, path + " must be at least " + min + ", was " + value);
            return false;
        }
        if (value > Integer.MAX_VALUE) {
            problems.add(path, path + " must be at most " + Integer.MAX_VALUE + ", was " + value);
            return false;
        }
        return true;
    }

    private static void validateNetwork(NetworkConfig network, Problems problems) {
        checkEventLoops(problems, "network.eventLoops", network.eventLoops());
        TcpKeepalive keepalive = network.keepalive();
        checkKeepaliveSeconds(problems, "network.keepalive.idle", keepalive.idle(), TcpKeepalive.MAX_IDLE);
        checkKeepaliveSeconds(problems, "network.keepalive.interval", keepalive.interval(), TcpKeepalive.MAX_INTERVAL);
        checkKeepaliveCount(problems, "network.keepalive.count", keepalive.count());
    }

    /** The kernel takes whole seconds: a value it would round is refused rather than changed unseen. */
    private static void checkKeepaliveSeconds(Problems problems, String path, Duration value, Duration max) {
        checkDuration(problems, path, value,
                v -> !v.isNegative() && v.compareTo(max) <= 0 && v.toNanos() % 1_000_000_000L == 0,
                "must be 0 (the system's) or whole seconds up to " + Durations.format(max));
    }

    static void checkKeepaliveCount(Problems problems, String path, long count) {
        if (count < 0 || count > TcpKeepalive.MAX_COUNT) {
            problems.add(path, path + " must be in 0.." + TcpKeepalive.MAX_COUNT + " (0: the system's), was " + count);
        }
    }

    static boolean checkEventLoops(Problems problems, String path, long eventLoops) {
        if (eventLoops < 1 || eventLoops > NetworkConfig.MAX_EVENT_LOOPS) {
            problems.add(path, path + " must be in 1.." + NetworkConfig.MAX_EVENT_LOOPS + ", was " + eventLoops);
            return false;
        }
        return true;
    }

    static boolean checkStatementRecords(Problems problems, String path, long records) {
        if (records < 0 || records > AdmissionConfig.MAX_STATEMENT_RECORDS) {
            problems.add(path, path + " must be in 0.." + AdmissionConfig.MAX_STATEMENT_RECORDS + ", was " + records);
            return false;
        }
        return true;
    }

    static boolean checkCpus(Problems problems, String path, long cpus) {
        if (cpus < 1 || cpus > GatewaySettings.MAX_CPUS) {
            problems.add(path, path + " must be in 1.." + GatewaySettings.MAX_CPUS + ", was " + cpus);
            return false;
        }
        return true;
    }

    /** A share: in (0, 1]. Written so that NaN, possible in code, fails too. */
    static boolean checkFraction(Problems problems, String path, double fraction) {
        if (!(fraction > 0 && fraction <= 1)) {
            problems.add(path, path + " must be in (0, 1], was " + numberText(fraction));
            return false;
        }
        return true;
    }

    /** For durations whose 0 means "never" or "at once". */
    private static void checkNotNegative(Problems problems, String path, Duration value) {
        checkDuration(problems, path, value, v -> !v.isNegative(), "must not be negative");
    }

    /**
     * Every duration's range check, so that each refusal reads alike: "{@code path} {@code rule}, was 60ms".
     * A plain number in the file is milliseconds, for every duration alike (Durations); PostgreSQL and
     * PgBouncer read the plain numbers of some settings as seconds (tcp_keepalives_idle, tcp_keepidle,
     * authentication_timeout), so when a refused plain number would have been accepted as seconds,
     * the message says how to write that rather than leave the user to wonder at "60ms".
     *
     * @return whether {@code accepts} takes {@code value}
     */
    private static boolean checkDuration(Problems problems, String path, Duration value, Predicate<Duration> accepts,
                                         String rule) {
        if (accepts.test(value)) {
            return true;
        }
        String hint = "";
        if (problems.wrotePlainNumber(path) && accepts.test(Duration.ofSeconds(value.toMillis()))) {
            hint = "; a number without a unit is milliseconds: write " + value.toMillis() + "s for seconds";
        }
        problems.add(path, path + " " + rule + ", was " + Durations.format(value) + hint);
        return false;
    }

    private static boolean checkPositiveSize(Problems problems, String path, long bytes) {
        if (bytes <= 0) {
            problems.add(path, path + " must be positive, was " + sizeText(bytes));
            return false;
        }
        return true;
    }

    /** A size as the user would write it; a negative one (only possible in code) as a plain number. */
    private static String sizeText(long bytes) {
        return bytes < 0 ? bytes + "B" : ByteSize.ofBytes(bytes).toString();
    }

    /** A number as the user would write it: "2", "1.5", "0.25", not "2.0". */
    private static String numberText(double value) {
        return Double.isFinite(value) ? BigDecimal.valueOf(value).stripTrailingZeros().toPlainString()
                : String.valueOf(value);
    }

    static void checkFile(Problems problems, String path, Path file) {
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
