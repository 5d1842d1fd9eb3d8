package io.memogate.proxy.admission;

import java.time.Duration;

/**
 * What a waiting statement shows about itself in the gateways' queue (the admin console's SHOW QUEUE):
 * whose it is, its fingerprint, how long its join search is predicted to take (0 where the dialect predicts
 * no time), and what degrading does with it: "after 5.0 s" for one that runs degraded once it has waited that
 * long, "degraded: ..." for one already under tighter settings, null for one that waits as it is; and
 * {@code degradeAfter}, that "after" (admission.degrade.after), null for one that does not degrade for waiting.
 */
public record QueuedStatement(SessionInfo session, String fingerprint, double searchSeconds, String degrade,
                              Duration degradeAfter) {

    /** One that does not degrade for waiting. */
    public QueuedStatement(SessionInfo session, String fingerprint, double searchSeconds, String degrade) {
        this(session, fingerprint, searchSeconds, degrade, null);
    }

    public QueuedStatement(SessionInfo session, String fingerprint) {
        this(session, fingerprint, 0, null);
    }

    public QueuedStatement(SessionInfo session, String fingerprint, double searchSeconds) {
        this(session, fingerprint, searchSeconds, null);
    }

    /** The first {@code max} characters, with "..." when cut: fingerprints of big statements are long. */
    public static String shorten(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max) + "...";
    }

    @Override
    public String toString() {
        return session + ": " + shorten(fingerprint, 80);
    }
}
