package io.memogate.proxy.config;

import java.nio.file.Path;
import java.util.List;

/**
 * A configuration that cannot be used, with every problem found in it.
 *
 * <p>Unchecked: at startup it ends the process with its message, and on reload the one caller that
 * reloads catches it and keeps the running configuration; no code in between could do anything useful
 * with a checked exception. The message is a header line followed by one line per problem, each naming
 * its field, e.g. {@code backends[1].port must be in 1..65535, was 70000}.
 */
public final class ConfigException extends RuntimeException {

    private final List<String> problems;

    /**
     * @param source the file the configuration came from, or null
     * @param problems one line each, at least one
     */
    public ConfigException(String source, List<String> problems) {
        this(problems, message(source, problems));
    }

    private ConfigException(List<String> problems, String message) {
        super(message);
        this.problems = List.copyOf(problems);
    }

    /**
     * The file itself cannot be read (missing, a directory, no permission): one line, as there is
     * nothing in it to list, e.g. {@code cannot read the configuration file /etc/memogate.yaml: file not found}.
     * The one problem is {@code why} followed by the file, for a reload's report.
     */
    static ConfigException unreadable(Path file, String why) {
        Path absolute = file.toAbsolutePath();
        return new ConfigException(List.of(why + ": " + absolute),
                "cannot read the configuration file " + absolute + ": " + why);
    }

    /**
     * The same problems said of {@code source}: for problems found after the file was read (a TLS file
     * that is not PEM is found when the proxy builds its TLS contexts), so the message names the file.
     */
    public ConfigException from(Path source) {
        ConfigException named = new ConfigException(source.toString(), problems);
        named.initCause(getCause() != null ? getCause() : this);
        return named;
    }

    /** Each problem as one line that names its field, in the order they were found. */
    public List<String> problems() {
        return problems;
    }

    private static String message(String source, List<String> problems) {
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("a ConfigException needs at least one problem");
        }
        StringBuilder sb = new StringBuilder("invalid configuration");
        if (source != null) {
            sb.append(' ').append(source);
        }
        sb.append(problems.size() == 1 ? " (1 problem):" : " (" + problems.size() + " problems):");
        problems.forEach(p -> sb.append("\n  ").append(p));
        return sb.toString();
    }
}
