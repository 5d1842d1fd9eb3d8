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

    // What a token does, looked up by kind and by word: the per-token work is one table load and a switch
    // on small constants, with no enum conversions (this runs for every token, inside the lexer's pass).
    private static final byte NOTHING = 0;
    private static final byte OPEN = 1;
    private static final byte CLOSE = 2;
    private static final byte COMMA = 3;
    private static final byte SEMICOLON = 4;
    private static final byte[] KIND_RULES = kindRules();
    private static final byte FROM_RULE = 1;
    private static final byte JOIN_RULE = 2;
    private static final byte USING_RULE = 3;
    private static final byte UPDATE_RULE = 4;
    private static final byte INSERT_RULE = 5;
    private static final byte DELETE_RULE = 6;
    private static final byte MERGE_RULE = 7;
    private static final byte TABLE_RULE = 8;
    private static final byte GROUP_RULE = 9;
    private static final byte ENDS_LIST_RULE = 10;
    private static final byte SET_RULE = 11;
    private static final byte[] WORD_RULES = wordRules();
    /** Words after which TABLE is DDL, not a relation; words whose parentheses hold no FROM clause. */
    private static final boolean[] DDL_BEFORE_TABLE = Keyword.table(Keyword.CREATE, Keyword.TEMP,
            Keyword.TEMPORARY, Keyword.UNLOGGED, Keyword.ALTER, Keyword.DROP, Keyword.TRUNCATE, Keyword.LOCK,
            Keyword.ON, Keyword.FOREIGN);
    private static final boolean[] FUNCTION_SYNTAX = Keyword.table(Keyword.EXTRACT, Keyword.SUBSTRING, Keyword.TRIM,
            Keyword.OVERLAY);

    private static final int NONE = Keyword.NONE.ordinal();
    private static final int DOT = TokenKind.DOT.ordinal();
    private static final int LPAREN = TokenKind.LPAREN.ordinal();
    private static final int FOR = Keyword.FOR.ordinal();
    private static final int KEY = Keyword.KEY.ordinal();
    private static final int DO = Keyword.DO.ordinal();
    private static final int THEN = Keyword.THEN.ordinal();
    private static final int ON = Keyword.ON.ordinal();
    private static final int WITHIN = Keyword.WITHIN.ordinal();
    private static final int UPDATE = Keyword.UPDATE.ordinal();
    private static final int DISTINCT = Keyword.DISTINCT.ordinal();
    private static final int IS = Keyword.IS.ordinal();
    private static final int NOT = Keyword.NOT.ordinal();
    private static final int ROWS = Keyword.ROWS.ordinal();

    private byte[] levels = new byte[16];
    private int depth;
    private int maxDepth;
    private int relations;
    /** Ordinals of the words of the two tokens before this one (NONE for other tokens). */
    private int previous = NONE;
    private int beforePrevious = NONE;
    private boolean afterDot;
    /** FROM after ROWS: ROWS FROM (...) if a parenthesis follows, else a column named rows and a FROM clause. */
    private boolean rowsFrom;

    void reset() {
        Arrays.fill(levels, 0, Math.min(levels.length, maxDepth + 1), (byte) 0);
        depth = 0;
        maxDepth = 0;
        relations = 0;
        previous = NONE;
        beforePrevious = NONE;
        afterDot = false;
        rowsFrom = false;
    }

    RelationBound result() {
        return new RelationBound(relations + (rowsFrom ? 1 : 0), maxDepth);
    }

    @Override
    public void token(int kind, int wordOrdinal, int start, int end) {
        // after a dot every word is a name, even a reserved one (attr_name is a ColLabel): t.where, s.table
        int word = afterDot ? NONE : wordOrdinal;
        afterDot = kind == DOT;
        if (rowsFrom) {
            rowsFrom = false;
            if (kind != LPAREN) {
                countFrom(); // "rows" was a column: SELECT rows FROM t
            }
        }
        if (word != NONE) {
            word(word);
        } else if (KIND_RULES[kind] != NOTHING) { // names, constants, operators count nothing
            switch (KIND_RULES[kind]) {
                case OPEN -> open(kind == LPAREN && FUNCTION_SYNTAX[previous]);
                case CLOSE -> {
                    levels[depth] = 0;
                    depth = Math.max(0, depth - 1);
                }
                case COMMA -> relations += levels[depth] & LIST;
                case SEMICOLON -> levels[depth] = 0;
                default -> { }
            }
        }
        beforePrevious = previous;
        previous = word;
    }

    private void word(int word) {
        switch (WORD_RULES[word]) {
            case FROM_RULE -> from();
            case JOIN_RULE -> relations++;
            case USING_RULE -> {
                if ((levels[depth] & USING_PENDING) != 0) {
                    relations++;
                    levels[depth] = (byte) ((levels[depth] & ~USING_PENDING) | LIST);
                }
            }
            case UPDATE_RULE -> relations += namesTarget() && previous != FOR && previous != KEY && previous != DO
                    ? 1 : 0;
            case INSERT_RULE -> relations += namesTarget() ? 1 : 0;
            case DELETE_RULE -> {
                if (namesTarget()) {
                    levels[depth] |= USING_PENDING; // the target is counted by its FROM
                }
            }
            case MERGE_RULE -> {
                relations++;
                levels[depth] |= USING_PENDING;
            }
            case TABLE_RULE -> relations += DDL_BEFORE_TABLE[previous] ? 0 : 1;
            case GROUP_RULE -> {
                if (previous != WITHIN) {
                    endList();
                }
            }
            case ENDS_LIST_RULE -> endList();
            case SET_RULE -> {
                if (previous == UPDATE) {
                    endList(); // ON CONFLICT DO UPDATE SET, MERGE ... THEN UPDATE SET
                }
            }
            default -> { }
        }
    }

    private void from() {
        if ((levels[depth] & NO_FROM_CLAUSE) != 0
                || (previous == DISTINCT && (beforePrevious == IS || beforePrevious == NOT))) {
            return;
        }
        if (previous == ROWS) {
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
        return previous != THEN && previous != ON;
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

    private static byte[] kindRules() {
        byte[] table = new byte[TokenKind.values().length];
        table[TokenKind.LPAREN.ordinal()] = OPEN;
        table[TokenKind.LBRACKET.ordinal()] = OPEN;
        table[TokenKind.RPAREN.ordinal()] = CLOSE;
        table[TokenKind.RBRACKET.ordinal()] = CLOSE;
        table[TokenKind.COMMA.ordinal()] = COMMA;
        table[TokenKind.SEMICOLON.ordinal()] = SEMICOLON;
        return table;
    }

    private static byte[] wordRules() {
        byte[] table = new byte[Keyword.values().length];
        table[Keyword.FROM.ordinal()] = FROM_RULE;
        table[Keyword.JOIN.ordinal()] = JOIN_RULE;
        table[Keyword.USING.ordinal()] = USING_RULE;
        table[Keyword.UPDATE.ordinal()] = UPDATE_RULE;
        table[Keyword.INSERT.ordinal()] = INSERT_RULE;
        table[Keyword.DELETE.ordinal()] = DELETE_RULE;
        table[Keyword.MERGE.ordinal()] = MERGE_RULE;
        table[Keyword.TABLE.ordinal()] = TABLE_RULE;
        table[Keyword.GROUP.ordinal()] = GROUP_RULE;
        for (Keyword k : new Keyword[] {Keyword.WHERE, Keyword.HAVING, Keyword.WINDOW, Keyword.ORDER, Keyword.LIMIT,
                Keyword.OFFSET, Keyword.FETCH, Keyword.FOR, Keyword.UNION, Keyword.INTERSECT, Keyword.EXCEPT,
                Keyword.RETURNING}) {
            table[k.ordinal()] = ENDS_LIST_RULE;
        }
        table[Keyword.SET.ordinal()] = SET_RULE;
        return table;
    }}
