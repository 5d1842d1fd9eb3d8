package io.memogate.bench.targets;

import java.util.Optional;

/**
 * The JVM options {@code bin/memogate} passes to Java ({@code MEMOGATE_JAVA_OPTS}, split at whitespace as the
 * launcher's unquoted expansion splits them), read once here so that every Java target the benchmark starts runs
 * with the options the shipped proxy runs with.
 */
final class LauncherOptions {

    static final String VARIABLE = "MEMOGATE_JAVA_OPTS";

    private LauncherOptions() {
    }

    /** The options as set, or empty when the variable is unset or blank. */
    static Optional<String> javaOptions() {
        return Optional.ofNullable(System.getenv(VARIABLE)).filter(options -> !options.isBlank()).map(String::strip);
    }
}
