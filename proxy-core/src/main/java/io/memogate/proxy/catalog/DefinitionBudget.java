package io.memogate.proxy.catalog;

/**
 * How many characters of definitions (views' queries, functions' bodies) one catalog read keeps for a
 * database: a catalog of tens of thousands of generated views should not cost the proxy hundreds of
 * megabytes. The reads come shortest first, so as many as possible are kept; those past the bound are left
 * out (each then counts as one relation) and counted for the log. Not thread-safe: one per read.
 */
final class DefinitionBudget {

    /** Characters kept per database and kind of definition. */
    static final long MAX_CHARS = 8L << 20;

    private long chars;
    private int leftOut;

    /** Whether {@code definition} is kept; false for a missing one, and for one past the bound (counted). */
    boolean keeps(String definition) {
        if (definition == null) {
            return false;
        }
        if (chars + definition.length() > MAX_CHARS) {
            leftOut++;
            return false;
        }
        chars += definition.length();
        return true;
    }

    /** Definitions left out for the bound. */
    int leftOut() {
        return leftOut;
    }
}
