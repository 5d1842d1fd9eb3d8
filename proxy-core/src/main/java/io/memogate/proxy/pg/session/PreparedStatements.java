package io.memogate.proxy.pg.session;

import io.memogate.estimator.RoutineDefinitions;
import io.memogate.proxy.pg.admission.PreparedQueries;
import io.memogate.proxy.pg.admission.SentText;
import io.memogate.proxy.pg.admission.SessionSettings;
import io.memogate.proxy.pg.admission.TransactionWords;
import io.memogate.proxy.pg.message.frontend.Bind;
import io.memogate.proxy.pg.message.frontend.Parse;
import io.netty.buffer.ByteBuf;
import java.util.HashMap;
import java.util.Map;

/**
 * The SQL of the session's prepared statements, by name ("" is the unnamed statement, replaced by
 * every Parse), so a Bind can be admitted with the text the server is about to plan. Mirrors the
 * server's own per-session state, so it grows no more than the server's does.
 */
final class PreparedStatements {

    /**
     * A Parse decoded off the event loop ({@link OffLoopText}), its text scanned there too, once, for what each
     * Bind would otherwise scan on the loop: the words that change the session, and the names of {@code routines}
     * that set (80-300 ms for 64 MiB).
     *
     * @param callsSetter whether it names one of {@code routines} that sets; false when it holds such a word
     */
    record ReadParse(String statementName, String sql, boolean mayChangeSession, RoutineDefinitions routines,
                     boolean callsSetter) {

        static ReadParse of(ByteBuf frame, RoutineDefinitions routines) {
            Parse parse = Parse.decode(frame);
            boolean mayChange = textMayChangeSession(parse.sql());
            return new ReadParse(parse.statementName(), parse.sql(), mayChange, routines,
                    !mayChange && routines.mayLeaveSettings(parse.sql()));
        }
    }

    private static final class Prepared {
        final String sql;
        /**
         * Whether the text may change the session's planner settings or its statements prepared in SQL (it
         * holds "set", "prepare", ...): only then does each Bind need to show it to them. For a short text, read
         * at the first Bind that asks, not at Parse: a Parse that no Bind asks about then costs no scan. A long
         * one's is read with its Parse, off the event loop.
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
        /** The routines with which the text was read at a Bind and found to change nothing; null before. */
        private RoutineDefinitions quietUnder;
        /** {@link #unreadText}, made at the first Bind that needs it. */
        private SentText unread;

        Prepared(String sql, Boolean mayChangeSession) {
            this.sql = sql;
            this.mayChangeSession = mayChangeSession;
        }

        boolean mayChangeSession(RoutineDefinitions routines) {
            if (quietUnder == routines) {
                return false;
            }
            if (textMayChangeSession()) {
                return true;
            }
            if (callsSetterUnder != routines) { // a catalog read since may know a routine that sets
                calls(routines, routines.mayLeaveSettings(sql));
            }
            return callsSetter;
        }

        private boolean textMayChangeSession() {
            if (mayChangeSession == null) {
                mayChangeSession = PreparedStatements.textMayChangeSession(sql);
            }
            return mayChangeSession;
        }

        void calls(RoutineDefinitions routines, boolean setter) {
            callsSetterUnder = routines;
            callsSetter = setter;
        }
    }

    /** Made once: a Bind of a statement never prepared here changes nothing (the server fails it). */
    private static final SentText UNKNOWN_TEXT = SentText.unread("");

    private final Map<String, Prepared> byName = new HashMap<>();
    /** The statement the last Bind named: the next Bind most likely names it again. */
    private String lastBound = "";

    /**
     * A Parse was forwarded. A named statement that exists already keeps its text, as on the server,
     * which rejects the second Parse (42P05); the unnamed one is replaced each time.
     */
    void parsed(String name, String sql) {
        parsed(name, new Prepared(sql, null));
    }

    /** A Parse read off the event loop was forwarded. */
    void parsed(ReadParse parse) {
        Prepared prepared = new Prepared(parse.sql(), parse.mayChangeSession());
        prepared.calls(parse.routines(), parse.callsSetter());
        parsed(parse.statementName(), prepared);
    }

    private void parsed(String name, Prepared prepared) {
        if (name.isEmpty()) {
            byName.put(name, prepared);
        } else {
            byName.putIfAbsent(name, prepared);
        }
    }

    /** Whether {@code sql} holds a word of the statements that change the session's settings or SQL prepares. */
    static boolean textMayChangeSession(String sql) {
        return SessionSettings.mayHoldSet(sql) || PreparedQueries.mayPrepareOrDeallocate(sql)
                || TransactionWords.mayOpenOrEnd(sql);
    }

    void closed(String name) {
        byName.remove(name);
    }

    /** The statement a Bind names; a String is made only when it is not the one the Bind before named. */
    String boundName(ByteBuf bind) {
        lastBound = Bind.statementName(bind, lastBound);
        return lastBound;
    }

    /**
     * The statement's text as a Bind that changes nothing in the session shows it ({@link SentText#unread}), made
     * once per statement rather than at each Bind.
     */
    SentText unreadText(String name) {
        Prepared prepared = byName.get(name);
        if (prepared == null) {
            return UNKNOWN_TEXT;
        }
        if (prepared.unread == null) {
            prepared.unread = SentText.unread(prepared.sql);
        }
        return prepared.unread;
    }

    /** The statement's SQL, or "" when it was never prepared here (the server will report the error). */
    String sqlOf(String name) {
        Prepared prepared = byName.get(name);
        return prepared == null ? "" : prepared.sql;
    }

    /**
     * Whether a Bind of the statement must be shown to the session's settings and SQL-prepared statements:
     * false for a text that holds none of the words that change them nor the name of one of {@code routines}
     * that sets, whose filters would otherwise scan it at every Bind (about 2 µs for a 1.2 kB query), and for one
     * {@linkplain #read read} with these routines and found to change nothing (an "UPDATE ... SET", lexed once, not
     * at every Bind: a second for 64 MiB). True for a statement never prepared here.
     */
    boolean mayChangeSession(String name, RoutineDefinitions routines) {
        Prepared prepared = byName.get(name);
        return prepared == null || prepared.mayChangeSession(routines);
    }

    /**
     * Whether {@link #mayChangeSession} would seek the statement's text for the names of those of {@code routines}
     * that set, not sought yet for them (a catalog read since brought them): for a long text, a scan to make off
     * the event loop, then told with {@link #read}.
     */
    boolean unsought(String name, RoutineDefinitions routines) {
        Prepared prepared = byName.get(name);
        return prepared != null && routines.leaveSettings() && prepared.callsSetterUnder != routines
                && prepared.quietUnder != routines && !prepared.textMayChangeSession();
    }

    /**
     * The statement's text was read at a Bind, with {@code routines}: found to change nothing, it is not read
     * again while they stand; else, holding none of the words that change the session, it calls one of them.
     */
    void read(String name, RoutineDefinitions routines, SentText text) {
        Prepared prepared = byName.get(name);
        if (prepared == null) {
            return;
        }
        if (!text.changesSession()) {
            prepared.quietUnder = routines;
        } else if (!prepared.textMayChangeSession()) {
            prepared.calls(routines, true);
        }
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
