package io.memogate.proxy.pg.session;

/**
 * The Syncs a client sends among COPY FROM STDIN data, for {@link ReleaseTracker}. PostgreSQL ignores a Sync it
 * reads in copy mode (copyfromparse.c, CopyGetData), but a row that fails ends the copy before the data does, and
 * it answers each Sync it reads after that with a ReadyForQuery. Which of them it read before the failure no
 * message says (a bad value fails at its row, a constraint at a batch's flush, maybe after the next Sync): after
 * a failed copy they are stray, each perhaps answered, until another answer shows the rest were ignored (the server
 * would have answered them first). Used on the session's event loop only.
 */
final class CopySyncs {

    /** The server began a COPY FROM STDIN (CopyInResponse) and has not ended it (CommandComplete or error). */
    private boolean open;
    /** Syncs the client sent among the open copy's data. */
    private int amongData;
    /** After a copy failed: Syncs among its data that the server may still answer. */
    private int stray;

    /** CopyInResponse. */
    void copyBegun() {
        answerCame();
        open = true;
    }

    /** A Sync sent among the data of the copy that began (or is about to: see ReleaseTracker#copyInStarted). */
    void syncAmongData() {
        amongData++;
    }

    /**
     * An answer other than ReadyForQuery or the copy's error: it ends the open copy (its CommandComplete: it read
     * all its data, the Syncs among it in copy mode), and shows that the server ignored the stray Syncs.
     */
    void answerCame() {
        open = false;
        amongData = 0;
        stray = 0;
    }

    /**
     * An ErrorResponse: true when it failed the open copy, whose Syncs among the data then become stray; else it
     * is an answer like any other.
     */
    boolean copyFailed() {
        if (!open) {
            answerCame();
            return false;
        }
        stray = amongData;
        open = false;
        amongData = 0;
        return true;
    }

    /** Whether a ReadyForQuery may still come for a stray Sync. */
    boolean strayPending() {
        return stray > 0;
    }

    /** A ReadyForQuery that nothing awaited: a stray Sync's, read after the failure. */
    void strayAnswered() {
        stray--;
    }
}
