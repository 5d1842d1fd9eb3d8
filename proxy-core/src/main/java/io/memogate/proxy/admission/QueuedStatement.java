package io.memogate.proxy.admission;

/**
 * What a waiting statement shows about itself in the gateways' queue (the admin console's SHOW QUEUE):
 * whose it is, its fingerprint, and how long its join search is predicted to take (0 where the dialect predicts
 * no time).
 */
public record QueuedStatement(SessionInfo session, String fingerprint, double searchSeconds) {

    public QueuedStatement(SessionInfo session, String fingerprint) {
        this(session, fingerprint, 0);
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
