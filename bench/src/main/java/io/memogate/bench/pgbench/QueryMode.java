package io.memogate.bench.pgbench;

import java.util.Locale;

/** pgbench's {@code -M}: how each statement goes to the server (pgbench documentation, option -M). */
public enum QueryMode {
    /** One Query message per statement, text in, parsed and planned every time. */
    SIMPLE,
    /** Parse/Bind/Execute/Sync with the unnamed statement, re-parsed every time. */
    EXTENDED,
    /** Named statements prepared once per connection, then Bind/Execute/Sync only. */
    PREPARED;

    /** The name pgbench and the CLI use. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
