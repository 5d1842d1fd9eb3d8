package io.memogate.proxy;

/** The running Memogate's version, from its jar's manifest (set by the build). */
public final class MemogateVersion {

    private MemogateVersion() {
    }

    /** "memogate 0.1.0", or "memogate development" when run from compiled classes rather than the jar. */
    public static String text() {
        String version = MemogateVersion.class.getPackage().getImplementationVersion();
        return "memogate " + (version != null ? version : "development");
    }
}
