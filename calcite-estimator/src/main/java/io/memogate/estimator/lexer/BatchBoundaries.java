package io.memogate.estimator.lexer;

/**
 * Where a T-SQL batch's statements end when nothing separates them: SQL Server reads {@code SELECT 1 SELECT 2}
 * and statements on lines of their own as several statements, and a line {@code GO} (sqlcmd's and SSMS's batch
 * separator, which a script may still hold) ends one too. A statement ends before a word that starts another at
 * the top level ({@code SELECT}, {@code INSERT}, {@code UPDATE}, {@code DELETE}, {@code DECLARE}, {@code SET},
 * {@code EXEC}, {@code IF}, {@code BEGIN}, ...) unless the statement so far makes it a part of its own:
 * <ul>
 *   <li>a set operation's next branch ({@code UNION [ALL] SELECT}), a cursor's query ({@code FOR SELECT}), a
 *   view's ({@code AS SELECT}), a referential action ({@code ON DELETE SET NULL}), a join hint
 *   ({@code INNER MERGE JOIN}), {@code CREATE OR ALTER};</li>
 *   <li>an INSERT's source ({@code INSERT INTO t SELECT}, {@code INSERT INTO t EXEC p}) before it has one, an
 *   UPDATE's first {@code SET}, the statement after a CTE ({@code WITH c AS (...) SELECT}: T-SQL requires a
 *   semicolon before a WITH, so a WITH always starts one);</li>
 *   <li>anything in a MERGE (which T-SQL requires to end with a semicolon), a GRANT, REVOKE or DENY, and
 *   {@code ELSE} and {@code END} inside a CASE;</li>
 *   <li>anything in {@code CREATE|ALTER PROC|PROCEDURE|FUNCTION|TRIGGER|VIEW}, semicolons too: such a
 *   statement must be the only one of its batch, so it runs to the next {@code GO} or the end.</li>
 * </ul>
 * The splitter feeds it the top-level words of one statement at a time.
 */
final class BatchBoundaries {

    private static final boolean[] STARTS = words(Keyword.SELECT, Keyword.INSERT, Keyword.UPDATE, Keyword.DELETE,
            Keyword.MERGE, Keyword.DECLARE, Keyword.SET, Keyword.EXEC, Keyword.EXECUTE, Keyword.IF, Keyword.WHILE,
            Keyword.BEGIN, Keyword.END, Keyword.ELSE, Keyword.RETURN, Keyword.PRINT, Keyword.USE, Keyword.CREATE,
            Keyword.DROP, Keyword.ALTER, Keyword.TRUNCATE, Keyword.GRANT, Keyword.REVOKE, Keyword.DENY,
            Keyword.COMMIT, Keyword.ROLLBACK, Keyword.THROW, Keyword.RAISERROR);
    /** Words after which a starting word continues the statement. */
    private static final boolean[] JOINS_NEXT = words(Keyword.UNION, Keyword.ALL, Keyword.EXCEPT,
            Keyword.INTERSECT, Keyword.FOR, Keyword.AS, Keyword.OR, Keyword.DISTINCT, Keyword.INNER, Keyword.LEFT,
            Keyword.RIGHT, Keyword.FULL, Keyword.OUTER, Keyword.CROSS);
    private static final boolean[] WHOLE = words(Keyword.MERGE, Keyword.GRANT, Keyword.REVOKE, Keyword.DENY);
    private static final boolean[] ROUTINES = words(Keyword.PROC, Keyword.PROCEDURE, Keyword.FUNCTION,
            Keyword.TRIGGER, Keyword.VIEW);
    private static final boolean[] QUERIES = words(Keyword.SELECT, Keyword.INSERT, Keyword.UPDATE, Keyword.DELETE,
            Keyword.MERGE);
    private static final int NONE = Keyword.NONE.ordinal();

    /** The statement's first word, and its verb: the first word, or for a WITH the query after its CTEs. */
    private int first = NONE;
    private int verb = NONE;
    private int previous = NONE;
    private int words;
    private int caseDepth;
    private boolean routine;
    private boolean insertSource;
    private boolean updateSet;

    private static boolean[] words(Keyword... keywords) {
        boolean[] table = new boolean[Keyword.values().length];
        for (Keyword k : keywords) {
            table[k.ordinal()] = true;
        }
        return table;
    }

    void reset() {
        first = NONE;
        verb = NONE;
        previous = NONE;
        words = 0;
        caseDepth = 0;
        routine = false;
        insertSource = false;
        updateSet = false;
    }

    /** Whether the statement, which runs to the next GO, ignores semicolons: a routine's or a view's body. */
    boolean wholeBatch() {
        return routine;
    }

    /**
     * Whether {@code word}, an identifier at the top level, starts the next statement; if not, it is taken as the
     * statement's. {@code hasTokens}: whether the statement has any so far.
     */
    boolean startsNext(int word, boolean hasTokens) {
        if (hasTokens && !routine && STARTS[word] && !continues(word)) {
            return true;
        }
        take(word);
        return false;
    }

    /** Whether a word that may start a statement is a part of this one. */
    private boolean continues(int word) {
        if (WHOLE[first] || JOINS_NEXT[previous]) {
            return true;
        }
        if (previous == Keyword.ON.ordinal()) { // ON DELETE, ON UPDATE; but SET NOCOUNT ON ends a statement
            return word == Keyword.DELETE.ordinal() || word == Keyword.UPDATE.ordinal();
        }
        if (word == Keyword.END.ordinal() || word == Keyword.ELSE.ordinal()) {
            return caseDepth > 0;
        }
        if (first == Keyword.WITH.ordinal() && verb == NONE) {
            return QUERIES[word];
        }
        if (verb == Keyword.INSERT.ordinal() && !insertSource) {
            return word == Keyword.SELECT.ordinal() || word == Keyword.EXEC.ordinal()
                    || word == Keyword.EXECUTE.ordinal();
        }
        if (word == Keyword.SET.ordinal()) {
            return verb == Keyword.UPDATE.ordinal() && !updateSet
                    || previous == Keyword.DELETE.ordinal() || previous == Keyword.UPDATE.ordinal();
        }
        return false;
    }

    private void take(int word) {
        if (words == 0) {
            first = word;
            verb = word == Keyword.WITH.ordinal() ? NONE : word;
        } else if (verb == NONE && QUERIES[word]) {
            verb = word;
        }
        if (words == 1 && (first == Keyword.CREATE.ordinal() || first == Keyword.ALTER.ordinal())) {
            routine = ROUTINES[word];
        } else if (words == 3 && first == Keyword.CREATE.ordinal() && previous == Keyword.ALTER.ordinal()) {
            routine = ROUTINES[word]; // CREATE OR ALTER PROCEDURE
        }
        if (word == Keyword.CASE.ordinal()) {
            caseDepth++;
        } else if (word == Keyword.END.ordinal() && caseDepth > 0) {
            caseDepth--;
        } else if (verb == Keyword.INSERT.ordinal() && (word == Keyword.VALUES.ordinal()
                || word == Keyword.SELECT.ordinal() || word == Keyword.EXEC.ordinal()
                || word == Keyword.EXECUTE.ordinal() || word == Keyword.DEFAULT.ordinal())) {
            insertSource = true;
        } else if (verb == Keyword.UPDATE.ordinal() && word == Keyword.SET.ordinal()) {
            updateSet = true;
        }
        previous = word;
        words++;
    }

    /** A top-level token that is not a word (a name, a constant, a parenthesis): it is no word to join to. */
    void other() {
        previous = NONE;
        words++;
    }
}
