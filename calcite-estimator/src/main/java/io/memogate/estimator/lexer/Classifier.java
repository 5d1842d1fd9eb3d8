package io.memogate.estimator.lexer;

import java.util.Optional;

/**
 * Classifies a statement from its leading tokens, following the grammar's statement forms
 * (src/backend/parser/gram.y) only as far as needed to find the planned query inside wrappers. Works on a
 * token range so a wrapper classifies what it wraps the same way; the nesting of wrappers is bounded, and
 * malformed statements end up as UTILITY or with the wrapper's kind, never as an exception.
 */
final class Classifier {

    /** EXPLAIN PREPARE ... nests at most a few levels in valid SQL; deeper text is not worth a stack. */
    private static final int MAX_NESTING = 8;

    private static final int LPAREN = TokenKind.LPAREN.ordinal();
    private static final int RPAREN = TokenKind.RPAREN.ordinal();
    private static final int LBRACKET = TokenKind.LBRACKET.ordinal();
    private static final int RBRACKET = TokenKind.RBRACKET.ordinal();
    private static final int DOT = TokenKind.DOT.ordinal();

    private final TokenStream ts;

    Classifier(TokenStream ts) {
        this.ts = ts;
    }

    Classification classify(int from, int to, int nesting) {
        if (from >= to) {
            return Classification.withoutQuery(StatementKind.EMPTY, false, Optional.empty());
        }
        if (nesting > MAX_NESTING) {
            return utility();
        }
        if (ts.is(from, TokenKind.LPAREN)) {
            return parenthesized(from, to);
        }
        return switch (ts.keyword(from)) {
            case SELECT -> query(depthZero(Keyword.INTO, from, to) >= 0 ? StatementKind.SELECT_INTO
                    : StatementKind.SELECT, from, to);
            case VALUES -> query(StatementKind.VALUES, from, to);
            case TABLE -> query(StatementKind.TABLE, from, to);
            case INSERT -> query(StatementKind.INSERT, from, to);
            // MySQL's REPLACE, an INSERT that deletes the rows it collides with; no statement of PostgreSQL's.
            case REPLACE -> ts.rules().mysqlStatements ? query(StatementKind.INSERT, from, to) : utility();
            case UPDATE -> query(StatementKind.UPDATE, from, to);
            case DELETE -> query(StatementKind.DELETE, from, to);
            case MERGE -> query(StatementKind.MERGE, from, to);
            case WITH -> with(from, to, nesting);
            case EXPLAIN -> explain(from, to, nesting);
            case CREATE -> create(from, to, nesting);
            case REFRESH -> refresh(from, to);
            case DECLARE -> declare(from, to, nesting);
            case COPY -> copy(from, to, nesting);
            case PREPARE -> prepare(from, to, nesting);
            case EXECUTE -> Classification.withoutQuery(StatementKind.EXECUTE, true, Literals.identifier(ts, from + 1));
            case DO -> Classification.withoutQuery(StatementKind.DO, true, Optional.empty());
            case SET -> setStatement(from, to, nesting);
            case RESET -> simple(StatementKind.RESET);
            case SHOW -> simple(StatementKind.SHOW);
            case BEGIN -> simple(StatementKind.BEGIN);
            case START -> ts.is(from + 1, Keyword.TRANSACTION) ? simple(StatementKind.BEGIN) : utility();
            case COMMIT, END -> ts.is(from + 1, Keyword.PREPARED) ? utility() : simple(StatementKind.COMMIT);
            case ROLLBACK, ABORT -> rollback(from);
            case SAVEPOINT -> Classification.withoutQuery(StatementKind.SAVEPOINT, false,
                    Literals.identifier(ts, from + 1));
            case RELEASE -> Classification.withoutQuery(StatementKind.RELEASE_SAVEPOINT, false,
                    Literals.identifier(ts, from + (ts.is(from + 1, Keyword.SAVEPOINT) ? 2 : 1)));
            default -> utility();
        };
    }

    /**
     * A SET; MariaDB's {@code SET STATEMENT name = value [, ...] FOR statement} is the statement after FOR, run
     * with those settings for its duration (the dialect's reader gives the settings).
     */
    private Classification setStatement(int from, int to, int nesting) {
        if (ts.rules().mysqlStatements && ts.isWord(from + 1, "statement") && ts.is(from + 2, TokenKind.IDENT)) {
            int body = depthZero(Keyword.FOR, from + 2, to);
            if (body > 0) {
                return classify(body + 1, to, nesting + 1);
            }
        }
        return simple(StatementKind.SET);
    }

    /** The statement is the query: {@code SELECT ...}, {@code INSERT ...}. */
    private Classification query(StatementKind kind, int from, int to) {
        StatementKind queryKind = kind == StatementKind.SELECT_INTO ? StatementKind.SELECT : kind;
        return new Classification(kind, queryKind, true, from, ts.start(from), ts.end(to - 1), Optional.empty());
    }

    /** {@code (SELECT ...) UNION ...}: a select statement, whatever the parentheses hold first. */
    private Classification parenthesized(int from, int to) {
        int i = from;
        while (i < to && ts.is(i, TokenKind.LPAREN)) {
            i++;
        }
        return switch (i < to ? ts.keyword(i) : Keyword.NONE) {
            case SELECT, VALUES, TABLE, WITH -> query(StatementKind.SELECT, from, to);
            default -> utility();
        };
    }

    /**
     * {@code WITH [RECURSIVE] name [(columns)] AS [[NOT] MATERIALIZED] (query) [SEARCH ...] [CYCLE ...], ...}
     * then the body, whose kind is the query's.
     */
    private Classification with(int from, int to, int nesting) {
        int i = from + 1;
        if (ts.is(i, Keyword.RECURSIVE)) {
            i++;
        }
        while (i < to) {
            i++; // the name
            if (ts.is(i, TokenKind.LPAREN)) {
                i = afterGroup(i, to);
            }
            if (!ts.is(i, Keyword.AS)) {
                break;
            }
            i++;
            if (ts.is(i, Keyword.NOT)) {
                i++;
            }
            if (ts.is(i, Keyword.MATERIALIZED)) {
                i++;
            }
            if (!ts.is(i, TokenKind.LPAREN)) {
                break;
            }
            i = afterGroup(i, to);
            if (ts.is(i, Keyword.SEARCH)) {
                i = after(depthZero(Keyword.SET, i, to), 2, to); // SEARCH ... SET column
            }
            if (ts.is(i, Keyword.CYCLE)) {
                i = after(depthZero(Keyword.USING, i, to), 2, to); // CYCLE ... USING column
            }
            if (!ts.is(i, TokenKind.COMMA)) {
                break;
            }
            i++;
        }
        Classification body = i > from && i < to ? classify(i, to, nesting + 1) : null;
        StatementKind queryKind = body != null && isQuery(body.kind()) ? body.queryKind() : StatementKind.WITH;
        StatementKind kind = body != null && body.kind() == StatementKind.SELECT_INTO
                ? StatementKind.SELECT_INTO : StatementKind.WITH;
        return new Classification(kind, queryKind, true, from, ts.start(from), ts.end(to - 1), Optional.empty());
    }

    /** {@code EXPLAIN [ANALYZE] [VERBOSE] statement} or {@code EXPLAIN (options) statement}. */
    private Classification explain(int from, int to, int nesting) {
        int i = from + 1;
        if (ts.is(i, TokenKind.LPAREN)) {
            i = afterGroup(i, to);
        } else {
            while (ts.is(i, Keyword.ANALYZE) || ts.is(i, Keyword.ANALYSE) || ts.is(i, Keyword.VERBOSE)) {
                i++;
            }
        }
        return wrapping(StatementKind.EXPLAIN, classify(i, to, nesting + 1), true, Optional.empty());
    }

    /** {@code CREATE [OR REPLACE] [TEMP|...] TABLE ... AS query} and {@code CREATE MATERIALIZED VIEW ... AS}. */
    private Classification create(int from, int to, int nesting) {
        int i = from + 1;
        if (ts.is(i, Keyword.OR) && ts.is(i + 1, Keyword.REPLACE)) {
            i += 2;
        }
        while (ts.is(i, Keyword.TEMP) || ts.is(i, Keyword.TEMPORARY) || ts.is(i, Keyword.LOCAL)
                || ts.is(i, Keyword.GLOBAL) || ts.is(i, Keyword.UNLOGGED)) {
            i++;
        }
        StatementKind kind;
        if (ts.is(i, Keyword.TABLE)) {
            kind = StatementKind.CREATE_TABLE_AS;
        } else if (ts.is(i, Keyword.MATERIALIZED) && ts.is(i + 1, Keyword.VIEW)) {
            kind = StatementKind.CREATE_MATERIALIZED_VIEW;
        } else {
            return utility();
        }
        int as = depthZero(Keyword.AS, i, to);
        if (as < 0) {
            return utility();
        }
        int end = to;
        boolean noData = false;
        if (ts.is(to - 1, Keyword.DATA) && ts.is(to - 2, Keyword.WITH)) {
            end = to - 2;
        } else if (ts.is(to - 1, Keyword.DATA) && ts.is(to - 2, Keyword.NO) && ts.is(to - 3, Keyword.WITH)) {
            end = to - 3;
            noData = true; // the query is analysed, not planned
        }
        return wrapping(kind, classify(as + 1, Math.max(end, as + 1), nesting + 1), !noData, Optional.empty());
    }

    /** {@code REFRESH MATERIALIZED VIEW [CONCURRENTLY] name [WITH [NO] DATA]}. */
    private Classification refresh(int from, int to) {
        if (!ts.is(from + 1, Keyword.MATERIALIZED) || !ts.is(from + 2, Keyword.VIEW)) {
            return utility();
        }
        int i = from + 3 + (ts.is(from + 3, Keyword.CONCURRENTLY) ? 1 : 0);
        boolean noData = ts.is(to - 1, Keyword.DATA) && ts.is(to - 2, Keyword.NO);
        return Classification.withoutQuery(StatementKind.REFRESH_MATERIALIZED_VIEW, !noData,
                Literals.qualifiedName(ts, i).map(Literals.Name::text));
    }

    /** {@code DECLARE name [BINARY] [INSENSITIVE] [[NO] SCROLL] CURSOR [WITH[OUT] HOLD] FOR query}. */
    private Classification declare(int from, int to, int nesting) {
        int cursor = depthZero(Keyword.CURSOR, from, to);
        int forWord = cursor < 0 ? -1 : depthZero(Keyword.FOR, cursor, to);
        if (forWord < 0) {
            return utility();
        }
        return wrapping(StatementKind.DECLARE_CURSOR, classify(forWord + 1, to, nesting + 1), true,
                Literals.identifier(ts, from + 1));
    }

    /** {@code COPY (query) TO ...}; a table's COPY plans nothing. */
    private Classification copy(int from, int to, int nesting) {
        if (!ts.is(from + 1, TokenKind.LPAREN)) {
            return utility();
        }
        int close = afterGroup(from + 1, to) - 1;
        int end = ts.is(close, TokenKind.RPAREN) && close > from + 1 ? close : to;
        return wrapping(StatementKind.COPY_QUERY, classify(from + 2, end, nesting + 1), true, Optional.empty());
    }

    /** {@code PREPARE name [(types)] AS statement}; {@code PREPARE TRANSACTION 'id'}. */
    private Classification prepare(int from, int to, int nesting) {
        if (ts.is(from + 1, Keyword.TRANSACTION)) {
            return simple(StatementKind.PREPARE_TRANSACTION);
        }
        int i = from + 2;
        if (ts.is(i, TokenKind.LPAREN)) {
            i = afterGroup(i, to);
        }
        if (!ts.is(i, Keyword.AS)) {
            return utility();
        }
        return wrapping(StatementKind.PREPARE, classify(i + 1, to, nesting + 1), false,
                Literals.identifier(ts, from + 1));
    }

    /** {@code ROLLBACK [WORK|TRANSACTION] [TO [SAVEPOINT] name | PREPARED 'id' | AND [NO] CHAIN]}. */
    private Classification rollback(int from) {
        int i = from + 1;
        if (ts.is(i, Keyword.WORK) || ts.is(i, Keyword.TRANSACTION)) {
            i++;
        }
        if (ts.is(i, Keyword.TO)) {
            i += ts.is(i + 1, Keyword.SAVEPOINT) ? 2 : 1;
            return Classification.withoutQuery(StatementKind.ROLLBACK_TO_SAVEPOINT, false, Literals.identifier(ts, i));
        }
        return ts.is(i, Keyword.PREPARED) ? utility() : simple(StatementKind.ROLLBACK);
    }

    /** A wrapper around an inner statement: the inner statement's query, planned only if both say so. */
    private static Classification wrapping(StatementKind kind, Classification inner, boolean planned,
            Optional<String> name) {
        return new Classification(kind, inner.queryKind(), planned && inner.planned(), inner.queryToken(),
                inner.queryStart(), inner.queryEnd(), name.isPresent() ? name : inner.name());
    }

    private static boolean isQuery(StatementKind kind) {
        return switch (kind) {
            case SELECT, SELECT_INTO, VALUES, TABLE, INSERT, UPDATE, DELETE, MERGE -> true;
            default -> false;
        };
    }

    private static Classification simple(StatementKind kind) {
        return Classification.withoutQuery(kind, false, Optional.empty());
    }

    private static Classification utility() {
        return simple(StatementKind.UTILITY);
    }

    /**
     * Index of the first {@code word} outside parentheses and brackets in [from, to), or -1; not after a dot.
     * It may walk every token of a SELECT (looking for INTO), so it reads the stream's arrays.
     */
    private int depthZero(Keyword word, int from, int to) {
        byte[] kinds = ts.kinds();
        short[] words = ts.words();
        int wanted = word.ordinal();
        int depth = 0;
        for (int i = from; i < to; i++) {
            int kind = kinds[i];
            if (kind == LPAREN || kind == LBRACKET) {
                depth++;
            } else if (kind == RPAREN || kind == RBRACKET) {
                depth = Math.max(0, depth - 1);
            } else if (depth == 0 && words[i] == wanted && (i == 0 || kinds[i - 1] != DOT)) {
                return i;
            }
        }
        return -1;
    }

    /** {@code skip} tokens after {@code found}, or {@code to} when nothing was found. */
    private static int after(int found, int skip, int to) {
        return found < 0 ? to : Math.min(to, found + skip);
    }

    /** From an opening parenthesis or bracket at i: the index after its match, or {@code to}. */
    private int afterGroup(int i, int to) {
        int depth = 0;
        for (; i < to; i++) {
            switch (ts.kind(i)) {
                case LPAREN, LBRACKET -> depth++;
                case RPAREN, RBRACKET -> {
                    if (--depth <= 0) {
                        return i + 1;
                    }
                }
                default -> { }
            }
        }
        return to;
    }
}
