package io.memogate.bench.storm.load;

import java.sql.SQLWarning;
import java.util.Optional;

/**
 * The NOTICE the proxy sends before a statement it runs under tighter planner settings (admission.degrade):
 * "statement planned with join_collapse_limit = 8, from_collapse_limit = 8 instead of ...". What a client sees is
 * the only place that says which step of the ladder each statement took.
 */
final class DegradeNotice {

    private static final String PREFIX = "statement planned with ";
    private static final String END = " instead of ";

    private DegradeNotice() {
    }

    /** The settings the first such NOTICE among {@code warnings} names; empty when there is none. */
    static Optional<String> settingsIn(SQLWarning warnings) {
        for (SQLWarning warning = warnings; warning != null; warning = warning.getNextWarning()) {
            String message = warning.getMessage();
            if (message != null && message.startsWith(PREFIX)) {
                int end = message.indexOf(END, PREFIX.length());
                return Optional.of(message.substring(PREFIX.length(), end < 0 ? message.length() : end));
            }
        }
        return Optional.empty();
    }
}
