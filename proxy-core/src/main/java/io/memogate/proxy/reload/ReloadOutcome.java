package io.memogate.proxy.reload;

import java.util.List;

/** What a reload did: applied a (possibly empty) list of changes, or refused the file and changed nothing. */
public sealed interface ReloadOutcome {

    /** @param changes every setting that differs; those needing a restart are listed but not applied */
    record Applied(List<ConfigChange> changes) implements ReloadOutcome {
        public Applied {
            changes = List.copyOf(changes);
        }

        public long notApplied() {
            return changes.stream().filter(change -> !change.applied()).count();
        }
    }

    /**
     * @param reason one sentence: why nothing changed
     * @param problems each problem of the file on its own line, naming its field (may be empty)
     */
    record Refused(String reason, List<String> problems) implements ReloadOutcome {
        public Refused {
            problems = List.copyOf(problems);
        }
    }
}
