package io.memogate.proxy.cli;

import io.memogate.proxy.files.UnreadableFileException;
import java.nio.file.Path;

/**
 * A file or directory an option names that cannot be used: missing, a directory where a file belongs,
 * not UTF-8, not a coefficients file. A mistake on the command line, so {@link StartupFailures} prints it
 * as one line, {@code memogate: --file /tmp/q.sql: file not found}, and exits with the code of a bad
 * command line, as picocli does for an option it cannot parse.
 */
final class OptionFileException extends RuntimeException {

    /** @param why what is wrong with {@code file}, e.g. "file not found" */
    OptionFileException(String option, Path file, String why) {
        super(option + " " + file + ": " + why);
    }

    /** {@code e} said of the option that named the file (or the directory the file is in). */
    OptionFileException(String option, UnreadableFileException e) {
        this(option, e.file(), e.why());
        initCause(e);
    }
}
