package io.memogate.proxy.pg.session;

import io.memogate.proxy.admission.AdmittedStatement;

/**
 * An entry of {@link ReleaseTracker}'s in-flight queue: something sent to the server whose answer the tracker
 * awaits, in the order it was sent. Admitted statements (a simple Query, a Bind) carry the statement to tell;
 * an Execute carries its portal; the rest are {@link Marker}s. What holds nothing of its own is a constant, so
 * the relay makes no entry object for a Sync, a Describe, an ungated statement or an Execute of the unnamed
 * portal.
 */
sealed interface InFlight {

    /** Messages whose answers concern no statement, only where the server is. */
    enum Marker implements InFlight {
        /** A Sync: answered with ReadyForQuery, where the server also stops skipping after an error. */
        CYCLE_END,
        /** The end of a simple Query or FunctionCall: answered with ReadyForQuery, unless the server skips to Sync. */
        QUERY_END,
        /** A Parse, Describe or Close: answered by one message or an error. */
        STATEMENT_MESSAGE,
        /** Where the client's CopyDone or CopyFail came, while it was not known whether a copy had begun. */
        COPY_END
    }

    /**
     * A simple Query forwarded after admission. It hears FIRST_RESPONSE and RUNNING only while it is the oldest
     * entry, so whether it has is the tracker's to remember, not the entry's.
     */
    record PendingQuery(AdmittedStatement statement) implements InFlight {
        /** Every ungated Query: there is nothing to tell it. */
        static final PendingQuery UNGATED = new PendingQuery(AdmittedStatement.UNGATED);
    }

    /**
     * A Bind forwarded after admission. A class, not a record: a kept one learns that its Execute was sent and
     * that it was released while it waits anywhere in the queue, then moves to the tracker's running Binds and is
     * taken out of those by identity.
     */
    final class PendingBind implements InFlight {
        /** Every ungated Bind: never kept, so never changed. */
        static final PendingBind UNGATED = new PendingBind(AdmittedStatement.UNGATED, "");

        final AdmittedStatement statement;
        final String portal;
        /** Planned while it runs: kept past BindComplete until its Execute completes. */
        final boolean kept;
        boolean executeSent;
        boolean released;

        PendingBind(AdmittedStatement statement, String portal) {
            this.statement = statement;
            this.portal = portal;
            this.kept = statement.plannedWhileRunning();
        }
    }

    /** The client's Execute of {@code portal}: its completion ends the run of a kept Bind of that portal. */
    record PendingExecute(String portal) implements InFlight {
        /** An Execute of the unnamed portal, which drivers use for nearly every statement. */
        static final PendingExecute UNNAMED = new PendingExecute("");
    }
}
