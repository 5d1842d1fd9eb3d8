package io.memogate.bench.targets;

import java.util.Locale;

/** What pgbench can be pointed at; the CLI names them in lower case. */
public enum TargetKind {
    /** PostgreSQL itself: the baseline every ratio divides by. */
    DIRECT,
    /** Memogate in this JVM. */
    MEMOGATE,
    /** PgBouncer in session mode, the connection pooler most deployments already run. */
    PGBOUNCER,
    /** HAProxy as a plain TCP relay: the cost of a proxy hop that parses nothing. */
    HAPROXY;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
