package io.memogate.estimator.postgres;

import io.memogate.estimator.lexer.Keyword;
import io.memogate.estimator.lexer.TokenKind;
import io.memogate.estimator.lexer.TokenStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * The queries a PL/pgSQL body has the server plan when it runs, read off its tokens: PL/pgSQL hands every
 * SQL statement and every expression to the main planner (through SPI) as the statement is reached, so the
 * largest of them is what the body may need to compile. Read at the start of each PL/pgSQL statement (after
 * {@code BEGIN}, {@code THEN}, {@code ELSE}, {@code LOOP}, a label):
 * <ul>
 *   <li>SQL statements: queries ({@code SELECT}, {@code WITH}, {@code INSERT}, ...), {@code CALL},
 *   {@code CREATE ... AS}, {@code REFRESH MATERIALIZED VIEW}, {@code EXPLAIN}, {@code COPY} (the estimator
 *   tells which of them plan what), also after {@code RETURN QUERY}, {@code FOR r IN}, {@code OPEN c FOR} and a
 *   cursor declaration's {@code FOR}, ending at the statement's {@code ;} or the loop's {@code LOOP}; their
 *   {@code INTO [STRICT] targets} removed, as PL/pgSQL removes it;
 *   <li>{@code SET} and {@code RESET}, which plan nothing but change how the queries after them are planned;
 *   <li>{@code PERFORM query}, planned as {@code SELECT query};
 *   <li>expressions that hold a sub-query or a function call, planned as {@code SELECT expression}: conditions of
 *   {@code IF}, {@code ELSIF}, {@code WHILE}, {@code WHEN}, {@code UNTIL}, {@code EXIT WHEN} and {@code ASSERT},
 *   {@code CASE}'s operand, loop bounds, right-hand sides of assignments and defaults ({@code :=}, {@code =},
 *   {@code DEFAULT}), {@code RETURN [NEXT] expression}. Other expressions are planned too, but as one-row
 *   selects they need no join search;
 *   <li>the text of {@code EXECUTE}, {@code RETURN QUERY EXECUTE}, {@code FOR r IN EXECUTE} and {@code OPEN c FOR
 *   EXECUTE} when a constant says it ({@link ExecutedStrings}).
 * </ul>
 * Not seen: {@code EXECUTE} of a string built from variables, and sub-queries among {@code RAISE}'s
 * arguments. Reading the body is not parsing it: a body PL/pgSQL would refuse still yields what looks like
 * statements. Never throws on any text.
 */
public final class PlpgsqlStatements {

    private static final int LPAREN = TokenKind.LPAREN.ordinal();
    private static final int LBRACKET = TokenKind.LBRACKET.ordinal();
    private static final int RPAREN = TokenKind.RPAREN.ordinal();
    private static final int RBRACKET = TokenKind.RBRACKET.ordinal();
    /** PL/pgSQL statements (besides FETCH, COMMIT, ROLLBACK, which are key words here) that plan nothing. */
    private static final String[] PROCEDURAL_ONLY = {"raise", "get", "null", "close", "move"};

    private final TokenStream ts;
    private final String body;
    private final List<String> found = new ArrayList<>();

    private PlpgsqlStatements(String body) {
        this.body = body;
        this.ts = TokenStream.of(body, PostgresLexicalRules.RULES);
    }

    /** The queries {@code body}, a PL/pgSQL block's text, plans when it runs, in the order they appear. */
    public static List<String> of(String body) {
        PlpgsqlStatements reader = new PlpgsqlStatements(body);
        reader.read();
        return List.copyOf(reader.found);
    }

    private void read() {
        int depth = 0;
        int from = 0;
        for (int i = 0; i < ts.size(); i++) {
            int kind = kindAt(i);
            if (kind == LPAREN || kind == LBRACKET) {
                depth++;
            } else if (kind == RPAREN || kind == RBRACKET) {
                depth = Math.max(0, depth - 1);
            } else if (depth == 0 && ts.is(i, TokenKind.SEMICOLON)) {
                chunk(from, i);
                from = i + 1;
            }
        }
        chunk(from, ts.size());
    }

    /**
     * One PL/pgSQL statement, up to its semicolon, with the control words that lead into it ({@code BEGIN},
     * {@code IF ... THEN}, {@code ELSE}, {@code LOOP}, a label): what it has the server plan is read at the
     * statement's start only, so that words inside an SQL statement ({@code AS SELECT}, {@code FOR UPDATE})
     * start nothing.
     */
    private void chunk(int from, int to) {
        int i = from;
        while (i < to) {
            if (ts.is(i, TokenKind.OPERATOR) && "<<".equals(ts.tokenText(i))) {
                i = afterLabel(i, to);
            } else if (isLeadingWord(i)) {
                i++;
            } else if (isConditionWord(i)) {
                int end = nextWord(i + 1, to, "loop", Keyword.THEN);
                expression(i + 1, end);
                i = end;
            } else if (ts.is(i, Keyword.CASE)) { // CASE x WHEN ...: x is an expression
                int end = nextWord(i + 1, to, "when", null);
                expression(i + 1, end);
                i = end;
            } else if (ts.is(i, Keyword.FOR) || ts.isWord(i, "foreach")) {
                i = loopHeader(i, to);
            } else {
                statementAt(i, to);
                return;
            }
        }
    }

    /** The words that lead into a statement without being one: BEGIN, DECLARE, THEN, ELSE, LOOP, EXCEPTION. */
    private boolean isLeadingWord(int i) {
        return isControlWord(i) || ts.isWord(i, "exception");
    }

    /** {@code FOR r IN query LOOP}, {@code FOR i IN [REVERSE] a..b LOOP}, {@code FOREACH x IN ARRAY e LOOP}. */
    private int loopHeader(int i, int to) {
        int loop = nextWord(i + 1, to, "loop", null);
        int in = atDepthZero(i + 1, loop, k -> ts.is(k, Keyword.IN));
        if (in >= 0) {
            int q = ts.isWord(in + 1, "reverse") ? in + 2 : in + 1;
            if (startsQuery(q)) {
                statement(q, loop);
            } else if (ts.is(q, Keyword.EXECUTE)) {
                executed(q + 1, loop);
            } else {
                expression(q, loop);
            }
        }
        return loop;
    }

    /** A statement that starts at {@code i}, with nothing left of it after. */
    private void statementAt(int i, int to) {
        if (ts.is(i, Keyword.EXECUTE)) {
            executed(i + 1, to);
            return;
        }
        if (ts.is(i, Keyword.END) || isProceduralOnly(i)) {
            return; // END IF, RAISE, GET DIAGNOSTICS, ...: nothing planned
        }
        if (ts.isWord(i, "exit") || ts.isWord(i, "continue")) {
            int when = atDepthZero(i + 1, to, k -> ts.is(k, Keyword.WHEN));
            if (when >= 0) {
                expression(when + 1, to);
            }
        } else if (ts.isWord(i, "return")) {
            if (ts.isWord(i + 1, "query")) {
                if (ts.is(i + 2, Keyword.EXECUTE)) {
                    executed(i + 3, to);
                } else {
                    statement(i + 2, to);
                }
            } else {
                expression(ts.isWord(i + 1, "next") ? i + 2 : i + 1, to);
            }
        } else if (ts.isWord(i, "perform")) {
            query("SELECT " + text(i + 1, to));
        } else if (ts.isWord(i, "open")) {
            int forWord = atDepthZero(i + 1, to, k -> ts.is(k, Keyword.FOR));
            if (forWord >= 0 && ts.is(forWord + 1, Keyword.EXECUTE)) {
                executed(forWord + 2, to);
            } else if (forWord >= 0) {
                statement(forWord + 1, to);
            }
        } else if (isSqlCommand(i)) {
            statement(i, to);
        } else {
            declarationOrAssignment(i, to);
        }
    }

    /**
     * {@code x := e}, {@code x = e}, {@code n int DEFAULT e}, {@code c CURSOR FOR query}: the expression or the
     * cursor's query.
     */
    private void declarationOrAssignment(int i, int to) {
        int cursor = atDepthZero(i, to, k -> ts.is(k, Keyword.CURSOR));
        if (cursor >= 0) {
            int forWord = atDepthZero(cursor + 1, to, k -> ts.is(k, Keyword.FOR));
            if (forWord >= 0) {
                statement(forWord + 1, to);
            }
            return;
        }
        int assigned = atDepthZero(i, to, k -> ts.is(k, TokenKind.COLON_EQUALS) || ts.is(k, Keyword.DEFAULT)
                || ts.is(k, TokenKind.OPERATOR) && "=".equals(ts.tokenText(k)));
        if (assigned >= 0) {
            expression(assigned + 1, to);
        }
    }

    /** Past a label {@code <<name>>}. */
    private int afterLabel(int i, int to) {
        int end = atDepthZero(i + 1, to, k -> ts.is(k, TokenKind.OPERATOR) && ts.tokenText(k).startsWith(">>"));
        return end < 0 ? to : end + 1;
    }

    /** PL/pgSQL statements that plan nothing of their own (their arguments are seldom sub-queries). */
    private boolean isProceduralOnly(int i) {
        for (String word : PROCEDURAL_ONLY) {
            if (ts.isWord(i, word)) {
                return true;
            }
        }
        return ts.is(i, Keyword.FETCH) || ts.is(i, Keyword.COMMIT) || ts.is(i, Keyword.ROLLBACK);
    }

    /** The first word of an SQL statement the body runs as such (the estimator tells what it plans). */
    private boolean isSqlCommand(int i) {
        if (startsQuery(i)) {
            return true;
        }
        return switch (ts.keyword(i)) {
            case CREATE, REFRESH, EXPLAIN, COPY, TABLE, SET, RESET -> true; // SET and RESET change later plans
            default -> ts.isWord(i, "call");
        };
    }

    private boolean startsQuery(int i) {
        return switch (ts.keyword(i)) {
            case SELECT, WITH, INSERT, UPDATE, DELETE, MERGE, VALUES -> true;
            default -> false;
        };
    }

    private boolean isConditionWord(int i) {
        return ts.is(i, Keyword.WHEN) || ts.isWord(i, "if") || ts.isWord(i, "elsif") || ts.isWord(i, "elseif")
                || ts.isWord(i, "while") || ts.isWord(i, "until") || ts.isWord(i, "assert");
    }

    private boolean isControlWord(int k) {
        return ts.is(k, Keyword.THEN) || ts.is(k, Keyword.ELSE) || ts.is(k, Keyword.BEGIN) || ts.is(k, Keyword.DECLARE)
                || ts.isWord(k, "loop");
    }

    /** The first {@code word} (or {@code also}) at parenthesis depth 0 in [from, to), else {@code to}. */
    private int nextWord(int from, int to, String word, Keyword also) {
        int found = atDepthZero(from, to, i -> ts.isWord(i, word) || also != null && ts.is(i, also));
        return found < 0 ? to : found;
    }

    /**
     * The first token outside parentheses, brackets and SQL CASE expressions in [from, to) that is
     * {@code wanted}, or -1: a condition's own THEN comes after the END of a CASE inside it. (The ranges
     * searched are a statement's parts, never a block: PL/pgSQL's own END is not among them.)
     */
    private int atDepthZero(int from, int to, IntPredicate wanted) {
        int depth = 0;
        for (int i = from; i < to; i++) {
            int kind = kindAt(i);
            if (kind == LPAREN || kind == LBRACKET || ts.is(i, Keyword.CASE)) {
                depth++;
            } else if (kind == RPAREN || kind == RBRACKET || depth > 0 && ts.is(i, Keyword.END)) {
                depth = Math.max(0, depth - 1);
            } else if (depth == 0 && wanted.test(i)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * An expression PL/pgSQL plans as {@code SELECT expression}; kept when it holds a sub-query or a function
     * call (whose own queries a catalog may know), not otherwise: a one-row select needs no join search.
     */
    private void expression(int from, int to) {
        for (int i = from; i < to; i++) {
            if (ts.is(i, Keyword.SELECT) || ts.is(i + 1, TokenKind.LPAREN) && i + 1 < to
                    && (ts.is(i, TokenKind.IDENT) || ts.is(i, TokenKind.QUOTED_IDENT))) {
                query("SELECT " + text(from, to));
                return;
            }
        }
    }

    /** EXECUTE's string in [from, to), up to its INTO or USING: the text it runs, when a constant says it. */
    private void executed(int from, int to) {
        int end = atDepthZero(from, to, k -> ts.is(k, Keyword.INTO) || ts.is(k, Keyword.USING));
        ExecutedStrings.of(ts, from, end < 0 ? to : end).ifPresent(this::query);
    }

    /** A SQL statement in [from, to), without the {@code INTO} clause PL/pgSQL takes out of it. */
    private void statement(int from, int to) {
        int into = intoClause(from, to);
        if (into < 0) {
            query(text(from, to));
            return;
        }
        int after = into + 1;
        if (ts.isWord(after, "strict")) {
            after++;
        }
        after = afterTargets(after, to);
        query(text(from, into) + " " + text(after, to));
    }

    /** The {@code INTO} of {@code SELECT ... INTO x}, {@code ... RETURNING a INTO x}: not INSERT's or MERGE's. */
    private int intoClause(int from, int to) {
        return atDepthZero(from, to,
                i -> ts.is(i, Keyword.INTO) && !ts.is(i - 1, Keyword.INSERT) && !ts.is(i - 1, Keyword.MERGE));
    }

    /** Past {@code a, b.c}: dotted names separated by commas. */
    private int afterTargets(int i, int to) {
        while (i < to && isName(i)) {
            i++;
            while (ts.is(i, TokenKind.DOT) && isName(i + 1)) {
                i += 2;
            }
            if (!ts.is(i, TokenKind.COMMA)) {
                return i;
            }
            i++;
        }
        return Math.min(i, to);
    }

    private boolean isName(int i) {
        return ts.is(i, TokenKind.IDENT) || ts.is(i, TokenKind.QUOTED_IDENT);
    }

    private void query(String sql) {
        if (!sql.isBlank()) {
            found.add(sql.strip());
        }
    }

    /** The body's text of tokens [from, to), as written. */
    private String text(int from, int to) {
        return from >= to ? "" : body.substring(ts.start(from), ts.end(to - 1));
    }

    private int kindAt(int i) {
        return ts.kind(i).ordinal();
    }
}
