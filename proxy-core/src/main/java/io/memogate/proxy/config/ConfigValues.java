package io.memogate.proxy.config;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * One configuration value read from its text: ports, durations, whole and decimal numbers, booleans, words of a
 * set, and paths resolved against the configuration file's directory. A value that cannot be read is recorded as
 * a problem under its path and replaced by its default, so that the rest can still be checked.
 */
final class ConfigValues {

    private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");

    private final Path baseDirectory;
    private final Problems problems;

    ConfigValues(Path baseDirectory, Problems problems) {
        this.baseDirectory = baseDirectory;
        this.problems = problems;
    }

    int port(String path, String text, int defaultPort, int min) {
        long port = whole(path, text, defaultPort);
        if (port != (int) port) {
            ConfigValidator.checkPort(problems, path, port, min);
            return defaultPort;
        }
        return (int) port;
    }

    /** {@link Durations#parse}, noting a plain number (milliseconds) so that a refusal can say how to write seconds. */
    Duration duration(String path, String text, Duration defaultValue) {
        if (text != null && Durations.isPlainNumber(text)) {
            problems.notePlainNumber(path);
        }
        return parse(path, text, Durations::parse, defaultValue);
    }

    long whole(String path, String text, long defaultValue) {
        return parse(path, text, t -> {
            try {
                return Long.parseLong(t.strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("must be a whole number, was '" + t + "'", e);
            }
        }, defaultValue);
    }

    Optional<Path> requiredPath(String path, String text) {
        if (text == null || text.isBlank()) {
            problems.add(path, path + " is required");
            return Optional.empty();
        }
        return optionalPath(path, text);
    }

    Optional<Path> optionalPath(String path, String text) {
        if (text == null) {
            return Optional.empty();
        }
        return Optional.ofNullable(parse(path, text, t -> baseDirectory.resolve(t).normalize(), null));
    }

    /**
     * {@code text} parsed, {@code defaultValue} when it is absent, and also when it is bad, after the
     * parser's message has been recorded under {@code path}.
     */
    <T> T parse(String path, String text, Function<String, T> parser, T defaultValue) {
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

    static boolean bool(String text) {
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("must be true or false, was '" + text + "'");
        };
    }

    /**
     * A decimal number: {@code 0.25}, {@code .5}, {@code 1}, {@code 2.5e-1}. Not Double.parseDouble's
     * whole syntax, which also takes "NaN", "Infinity", hex and a trailing d or f.
     */
    static double decimal(String text) {
        if (!DECIMAL.matcher(text.strip()).matches()) {
            throw new IllegalArgumentException("must be a number, was '" + text + "'");
        }
        return Double.parseDouble(text.strip());
    }

    /** A setting's word, read by {@code byName} (an enum's configuration names, {@code names}). */
    static <E> Function<String, E> oneOf(Function<String, Optional<E>> byName, String names) {
        return text -> byName.apply(text.strip()).orElseThrow(() -> new IllegalArgumentException(
                "must be one of " + names + ", was '" + text + "'"));
    }
}
