package io.memogate.proxy.pg.session;

import io.memogate.estimator.RoutineDefinitions;
import io.memogate.proxy.admission.PreparedQueries;
import io.memogate.proxy.admission.SessionSettings;
import java.util.HashMap;
import java.util.Map;

/**
 * The SQL of the session's prepared statements, by name ("" is the unnamed statement, replaced by
 * every Parse), so a Bind can be admitted with the text the server is about to plan. Mirrors the
 * server's own per-session state, so it grows no more than the server's does.
 */
final class PreparedStatements {

    private static final class Prepared {
        final String sql;
        /**
         * Whether the text may change the session's planner settings or its statements prepared in SQL (it
         * holds "set", "prepare", ...): only then does each Bind need to show it to them. Read at the first
         * Bind that asks, not at Parse: with gateways off no Bind asks, and a Parse costs no scan.
         */
        private Boolean mayChangeSession;
        /**
         * What admission knew of the database when it said the text never needs a gateway (not planned, or one
         * relation), whatever the settings; null until it said so. A view or routine read since may change that.
         */
        Object bypassesUnder;
        /** The routines {@link #callsSetter} was found with; null before it was asked. */
        private RoutineDefinitions callsSetterUnder;
        private boolean callsSetter;

        Prepared(String sql) {
            this.sql = sql;
        }

        boolean mayChangeSession(RoutineDefinitions routines) {
            if (mayChangeSession == null) {
                mayChangeSession = SessionSettings.mayHoldSet(sql) || PreparedQueries.mayPrepareOrDeallocate(sql);
            }
            if (mayChangeSession) {
                return true;
            }
            if (callsSetterUnder != routines) { // a catalog read since may know a routine that sets
                callsSetterUnder = routines;
                callsSetter = routines.mayLeaveSettings(sql);
            }
            return callsSetter;
        }
    }

    private final Map<String, Prepared> byName = new HashMap<>();

    /**
     * A Parse was forwarded. A named statement that exists already keeps its text, as on the server,
     * which rejects the second Parse (42P05); the unnamed one is replaced each time.
     */
    void parsed(String name, String sql) {
        if (name.isEmpty()) {
            byName.put(name, new Prepared(sql));
        } else {
            byName.putIfAbsent(name, new Prepared(sql));
        }
    }

    void closed(String name) {
        byName.remove(name);
    }

    /** The statement's SQL, or "" when it was never prepared here (the server will report the error). */
    String sqlOf(String name) {
        Prepared prepared = byName.get(name);
        return prepared == null ? "" : prepared.sql;
    }

    /**
     * Whether a Bind of the statement must be shown to the session's settings and SQL-prepared statements:
     * false for a text that holds none of the words that change them nor the name of one of {@code routines}
     * that sets, whose filters would otherwise scan it at every Bind (about 2 µs for a 1.2 kB query). True for a
     * statement never prepared here.
     */
    boolean mayChangeSession(String name, RoutineDefinitions routines) {
        Prepared prepared = byName.get(name);
        return prepared == null || prepared.mayChangeSession(routines);
    }

    /**
     * Whether later Binds of the statement can skip admission: prepared statements are bound again and
     * again (pgbench -M prepared, pooled JDBC), and estimating the same text each time is wasted work. Not
     * once what admission knows of the database has changed since: {@code select * from t} stops being one
     * relation when {@code t} is replaced by a view, {@code select f()} when {@code f} gets a heavy query.
     */
    boolean bypasses(String name, Object catalogVersion) {
        Prepared prepared = byName.get(name);
        return prepared != null && prepared.bypassesUnder == catalogVersion;
    }

    /** Admission let the statement bypass, knowing {@code catalogVersion} of the database (taken before it asked). */
    void bypassing(String name, Object catalogVersion) {
        Prepared prepared = byName.get(name);
        if (prepared != null) {
            prepared.bypassesUnder = catalogVersion;
        }
    }
}
