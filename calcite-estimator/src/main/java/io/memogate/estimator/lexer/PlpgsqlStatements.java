package io.memogate.estimator.lexer;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * The queries a PL/pgSQL body has the server plan when it runs, read off its tokens: PL/pgSQL hands every
 * SQL statement and every expression to the main planner (through SPI) as the statement is reached, so the
 * largest of them is what the body may need to compile. Found are
 * <ul>
 *   <li>SQL statements: {@code SELECT}, {@code WITH}, {@code INSERT}, {@code UPDATE}, {@code DELETE},
 *   {@code MERGE}, {@code VALUES}, also after {@code RETURN QUERY}, {@code FOR r IN}, {@code OPEN c FOR} and a
 *   cursor declaration's {@code FOR}, ending at the block's {@code ;} or a {@code LOOP}; their
 *   {@code INTO [STRICT] targets} removed, as PL/pgSQL removes it;
 *   <li>{@code PERFORM query}, planned as {@code SELECT query};
 *   <li>expressions that hold a sub-query, planned as {@code SELECT expression}: conditions of {@code IF},
 *   {@code ELSIF}, {@code WHILE}, {@code WHEN}, {@code UNTIL} and {@code ASSERT}, right-hand sides of
 *   assignments and defaults ({@code :=}, {@code =}), {@code RETURN [NEXT] expression}. Expressions without
 *   one are planned too, but as one-row selects they need no join search.
 * </ul>
 * Not seen: {@code EXECUTE} of a string built at run time, and sub-queries among {@code RAISE}'s
 * arguments. Reading the body is not parsing it: a body PL/pgSQL would refuse still yields what looks like
 * statements. Never throws on any text.
 */
public final class PlpgsqlStatements {

    private static final int LPAREN = TokenKind.LPAREN.ordinal();
    private static final int LBRACKET = TokenKind.LBRACKET.ordinal();
    private static final int RPAREN = TokenKind.RPAREN.ordinal();
    private static final int RBRACKET = TokenKind.RBRACKET.ordinal();

    private final TokenStream ts;
    private final String body;
    private final List<String> found = new ArrayList<>();

    private PlpgsqlStatements(String body) {
        this.body = body;
        this.ts = TokenStream.of(body);
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

    /** One PL/pgSQL statement, up to its semicolon, with the control words that lead into it. */
    private void chunk(int from, int to) {
        int i = from;
        while (i < to) {
            if (startsStatement(i)) {
                int end = nextWord(i, to, "loop", null);
                statement(i, end);
                i = end;
            } else if (ts.isWord(i, "perform")) {
                query("SELECT " + text(i + 1, to));
                i = to;
            } else if (ts.is(i, Keyword.EXECUTE)) {
                i = nextWord(i, to, "loop", null); // a string built at run time: not seen
            } else if (ts.isWord(i, "return")) {
                if (ts.isWord(i + 1, "query")) {
                    i += 2;
                } else {
                    int next = ts.isWord(i + 1, "next") ? i + 2 : i + 1;
                    expression(next, to);
                    i = to;
                }
            } else if (isConditionWord(i)) {
                int end = nextWord(i + 1, to, "loop", Keyword.THEN);
                expression(i + 1, end);
                i = end;
            } else if (ts.is(i, TokenKind.COLON_EQUALS) || isAssignment(from, i)) {
                expression(i + 1, to);
                i = to;
            } else {
                i++;
            }
        }
    }

    private boolean startsStatement(int i) {
        return switch (ts.keyword(i)) {
            case SELECT, WITH, INSERT, UPDATE, DELETE, MERGE, VALUES -> true;
            default -> false;
        };
    }

    private boolean isConditionWord(int i) {
        return ts.is(i, Keyword.WHEN) || ts.isWord(i, "if") || ts.isWord(i, "elsif") || ts.isWord(i, "elseif")
                || ts.isWord(i, "while") || ts.isWord(i, "until") || ts.isWord(i, "assert");
    }

    /**
     * {@code target = expression}: an '=' after a (dotted, subscripted) name that opens a PL/pgSQL statement,
     * at the chunk's start or after the control word before it ({@code THEN x = ...}).
     */
    private boolean isAssignment(int from, int i) {
        if (!ts.is(i, TokenKind.OPERATOR) || !"=".equals(ts.tokenText(i))) {
            return false;
        }
        int k = i - 1;
        while (k >= from && isTargetPart(k)) {
            k--;
        }
        return k < i - 1 && (k < from || isControlWord(k) || ">>".equals(ts.tokenText(k)));
    }

    private boolean isTargetPart(int k) {
        return switch (ts.kind(k)) {
            case IDENT, QUOTED_IDENT, DOT, LBRACKET, RBRACKET, NUMBER, PARAM -> !isControlWord(k);
            default -> false;
        };
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

    /** The first token outside parentheses and brackets in [from, to) that is {@code wanted}, or -1. */
    private int atDepthZero(int from, int to, IntPredicate wanted) {
        int depth = 0;
        for (int i = from; i < to; i++) {
            int kind = kindAt(i);
            if (kind == LPAREN || kind == LBRACKET) {
                depth++;
            } else if (kind == RPAREN || kind == RBRACKET) {
                depth = Math.max(0, depth - 1);
            } else if (depth == 0 && wanted.test(i)) {
                return i;
            }
        }
        return -1;
    }

    /** An expression PL/pgSQL plans as {@code SELECT expression}; kept only when it holds a sub-query. */
    private void expression(int from, int to) {
        for (int i = from; i < to; i++) {
            if (ts.is(i, Keyword.SELECT)) {
                query("SELECT " + text(from, to));
                return;
            }
        }
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
