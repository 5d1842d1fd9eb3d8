package io.memogate.bench.storm.load;

import io.memogate.proxy.admission.Degraded;
import java.sql.SQLWarning;
import java.util.Optional;

/**
 * The NOTICE the proxy sends before a statement it runs under tighter planner settings (admission.degrade):
 * "statement planned with join_collapse_limit = 8, from_collapse_limit = 8 instead of ...". What a client sees is
 * the only place that says which step of the ladder each statement took.
 */
final class DegradeNotice {

    private DegradeNotice() {
    }

    /** The settings the first such NOTICE among {@code warnings} names; empty when there is none. */
    static Optional<String> settingsIn(SQLWarning warnings) {
        for (SQLWarning warning = warnings; warning != null; warning = warning.getNextWarning()) {
            String message = warning.getMessage();
            if (message != null && message.startsWith(Degraded.MESSAGE_START)) {
                int start = Degraded.MESSAGE_START.length();
                int end = message.indexOf(Degraded.MESSAGE_AFTER_SETTINGS, start);
                return Optional.of(message.substring(start, end < 0 ? message.length() : end));
            }
        }
        return Optional.empty();
    }
}
