package io.memogate.proxy.calibrate;

import java.nio.file.Path;
import java.util.List;

/** A file that cannot be read or is not a coefficients file; the message lists every problem. */
public final class InvalidCoefficientsException extends RuntimeException {
    private final List<String> problems;

    public InvalidCoefficientsException(Path file, List<String> problems) {
        super(file + ": " + String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
