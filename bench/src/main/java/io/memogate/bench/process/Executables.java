package io.memogate.bench.process;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Finds programs the way a shell does, on the {@code PATH} this JVM was given. Debian installs
 * pgbouncer and haproxy in /usr/sbin, which a non-root PATH often lacks, so /usr/sbin and /sbin are
 * searched after it.
 */
public final class Executables {

    private static final String EXTRA_DIRECTORIES = "/usr/local/sbin:/usr/sbin:/sbin";

    private final String path;

    public Executables(String path) {
        this.path = path == null ? EXTRA_DIRECTORIES : path + ":" + EXTRA_DIRECTORIES;
    }

    /** The PATH of this process. */
    public static Executables fromEnvironment() {
        return new Executables(System.getenv("PATH"));
    }

    public Optional<Path> find(String program) {
        for (String directory : path.split(Pattern.quote(":"))) {
            if (directory.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(directory, program);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
