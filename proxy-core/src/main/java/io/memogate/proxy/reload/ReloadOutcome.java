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

        /**
         * "unchanged", "1 setting changed, none needs a restart", "3 settings changed, 2 need a restart":
         * the one way the log, SHOW STATS and RELOAD's notice count a reload's changes.
         */
        public String summary() {
            int changed = changes.size();
            if (changed == 0) {
                return "unchanged";
            }
            long restart = notApplied();
            return changed + (changed == 1 ? " setting" : " settings") + " changed, "
                    + (restart == 0 ? "none needs" : restart == 1 ? "1 needs" : restart + " need") + " a restart";
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
