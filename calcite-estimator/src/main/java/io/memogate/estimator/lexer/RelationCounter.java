package io.memogate.estimator.lexer;

import java.util.Arrays;

/**
 * Counts the relations a statement names, token by token, so that it also bounds statements too long to
 * keep their tokens. Per nesting level ({@code (} or {@code [}) it remembers whether a relation list is
 * open there; the rules, each chosen to over-count rather than miss a relation:
 * <ul>
 * <li>{@code FROM} opens a list with one item, and each comma at that level adds one, until a clause word
 *     ends the list ({@code WHERE GROUP HAVING WINDOW ORDER LIMIT OFFSET FETCH FOR UNION INTERSECT EXCEPT
 *     RETURNING}, all reserved, so they cannot be names; and {@code UPDATE SET}, since SET alone may be a
 *     name) or its level closes. Sub-queries, CTE bodies, VALUES lists and functions in FROM are
 *     one item each, and their own FROMs count again (so a sub-query counts itself and its relations);</li>
 * <li>every {@code JOIN} adds one: {@code a JOIN b} is the FROM item plus one, also when nested as
 *     {@code (a JOIN b) JOIN c};</li>
 * <li>the targets: {@code UPDATE}, {@code INSERT}, {@code MERGE} add one each, but not
 *     {@code FOR [NO KEY] UPDATE}, {@code DO UPDATE}, {@code ON UPDATE|DELETE|INSERT} or a MERGE action
 *     after {@code THEN}; {@code DELETE FROM t} counts its target by the FROM (so a column named delete
 *     cannot hide a FROM clause); after DELETE or MERGE the first {@code USING} at the same level opens a
 *     list like FROM;</li>
 * <li>{@code TABLE t} adds one unless TABLE follows a DDL word ({@code CREATE [TEMP] TABLE},
 *     {@code ALTER|DROP|TRUNCATE|LOCK TABLE}, {@code ON TABLE}, {@code FOREIGN TABLE});</li>
 * <li>FROM is not a clause in {@code IS [NOT] DISTINCT FROM}, {@code ROWS FROM (...)} (decided by the
 *     next token, since rows may be a column), nor inside the parentheses of EXTRACT, SUBSTRING, TRIM and
 *     OVERLAY;</li>
 * <li>a word after a dot is a name, whatever it spells ({@code t.where}, {@code s.table}).</li>
 * </ul>
 * Known over-counts: a derived table counts itself and its relations; {@code GROUP} after {@code WITHIN}
 * does not end a list (WITHIN GROUP (ORDER BY ...) may stand in a join condition), so an alias named
 * within before GROUP BY lets the grouping commas count.
 */
final class RelationCounter implements TokenSink {

    private static final byte LIST = 1;
    private static final byte USING_PENDING = 2;
    private static final byte NO_FROM_CLAUSE = 4;

    private static final int NONE = Keyword.NONE.ordinal();
    private static final int DOT = TokenKind.DOT.ordinal();
    /** The kinds {@link #token} acts on whatever the word: nesting, list commas, statement ends. */
    private static final boolean[] STRUCTURE = structure();

    private byte[] levels = new byte[16];
    private int depth;
    private int maxDepth;
    private int relations;
    private Keyword previous = Keyword.NONE;
    private Keyword beforePrevious = Keyword.NONE;
    private boolean afterDot;
    /** FROM after ROWS: ROWS FROM (...) if a parenthesis follows, else a column named rows and a FROM clause. */
    private boolean rowsFrom;

    void reset() {
        Arrays.fill(levels, 0, Math.min(levels.length, maxDepth + 1), (byte) 0);
        depth = 0;
        maxDepth = 0;
        relations = 0;
        previous = Keyword.NONE;
        beforePrevious = Keyword.NONE;
        afterDot = false;
        rowsFrom = false;
    }

    RelationBound result() {
        return new RelationBound(relations + (rowsFrom ? 1 : 0), maxDepth);
    }

    @Override
    public void token(int kindOrdinal, int wordOrdinal, int start, int end) {
        // after a dot every word is a name, even a reserved one (attr_name is a ColLabel): t.where, s.table
        int wordAfterDot = afterDot ? NONE : wordOrdinal;
        afterDot = kindOrdinal == DOT;
        if (!rowsFrom && wordAfterDot == NONE && !STRUCTURE[kindOrdinal]) {
            // Most tokens (names, constants, operators) count nothing: only the look-behind moves.
            if (previous != Keyword.NONE || beforePrevious != Keyword.NONE) {
                beforePrevious = previous;
                previous = Keyword.NONE;
            }
            return;
        }
        TokenKind kind = TokenKind.ofOrdinal(kindOrdinal);
        Keyword word = Keyword.ofOrdinal(wordAfterDot);
        if (rowsFrom) {
            rowsFrom = false;
            if (kind != TokenKind.LPAREN) {
                countFrom(); // "rows" was a column: SELECT rows FROM t
            }
        }
        switch (kind) {
            case LPAREN, LBRACKET -> open(kind == TokenKind.LPAREN && opensFunctionSyntax(previous));
            case RPAREN, RBRACKET -> {
                levels[depth] = 0;
                depth = Math.max(0, depth - 1);
            }
            case COMMA -> relations += (levels[depth] & LIST) != 0 ? 1 : 0;
            case SEMICOLON -> levels[depth] = 0;
            case IDENT -> word(word);
            default -> { }
        }
        beforePrevious = previous;
        previous = word;
    }

    private void word(Keyword word) {
        switch (word) {
            case FROM -> from();
            case JOIN -> relations++;
            case USING -> {
                if ((levels[depth] & USING_PENDING) != 0) {
                    relations++;
                    levels[depth] = (byte) ((levels[depth] & ~USING_PENDING) | LIST);
                }
            }
            case UPDATE -> relations += namesTarget() && previous != Keyword.FOR && previous != Keyword.KEY
                    && previous != Keyword.DO ? 1 : 0;
            case INSERT -> relations += namesTarget() ? 1 : 0;
            case DELETE -> {
                if (namesTarget()) {
                    levels[depth] |= USING_PENDING; // the target is counted by its FROM
                }
            }
            case MERGE -> {
                relations++;
                levels[depth] |= USING_PENDING;
            }
            case TABLE -> relations += followsDdlWord() ? 0 : 1;
            case GROUP -> {
                if (previous != Keyword.WITHIN) {
                    endList();
                }
            }
            case WHERE, HAVING, WINDOW, ORDER, LIMIT, OFFSET, FETCH, FOR, UNION, INTERSECT, EXCEPT, RETURNING ->
                    endList();
            case SET -> {
                if (previous == Keyword.UPDATE) {
                    endList(); // ON CONFLICT DO UPDATE SET, MERGE ... THEN UPDATE SET
                }
            }
            default -> { }
        }
    }

    private void from() {
        if ((levels[depth] & NO_FROM_CLAUSE) != 0
                || (previous == Keyword.DISTINCT && (beforePrevious == Keyword.IS || beforePrevious == Keyword.NOT))) {
            return;
        }
        if (previous == Keyword.ROWS) {
            rowsFrom = true;
            return;
        }
        countFrom();
    }

    private void countFrom() {
        relations++;
        levels[depth] |= LIST;
    }

    /** A DML word names a target unless it is a MERGE action (after THEN) or a DDL event (after ON). */
    private boolean namesTarget() {
        return previous != Keyword.THEN && previous != Keyword.ON;
    }

    private boolean followsDdlWord() {
        return switch (previous) {
            case CREATE, TEMP, TEMPORARY, UNLOGGED, ALTER, DROP, TRUNCATE, LOCK, ON, FOREIGN -> true;
            default -> false;
        };
    }

    private void endList() {
        levels[depth] &= ~(LIST | USING_PENDING);
    }

    private void open(boolean functionSyntax) {
        depth++;
        if (depth == levels.length) {
            levels = Arrays.copyOf(levels, depth * 2);
        }
        levels[depth] = functionSyntax ? NO_FROM_CLAUSE : 0;
        maxDepth = Math.max(maxDepth, depth);
    }

    private static boolean[] structure() {
        boolean[] table = new boolean[TokenKind.values().length];
        for (TokenKind k : new TokenKind[] {TokenKind.LPAREN, TokenKind.LBRACKET, TokenKind.RPAREN,
                TokenKind.RBRACKET, TokenKind.COMMA, TokenKind.SEMICOLON}) {
            table[k.ordinal()] = true;
        }
        return table;
    }

    private static boolean opensFunctionSyntax(Keyword word) {
        return word == Keyword.EXTRACT || word == Keyword.SUBSTRING || word == Keyword.TRIM || word == Keyword.OVERLAY;
    }
}
