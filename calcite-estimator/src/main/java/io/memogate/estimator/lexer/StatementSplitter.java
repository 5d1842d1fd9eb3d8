package io.memogate.estimator.lexer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Splits text into statements at top-level semicolons the way psql does (src/fe_utils/psqlscan.l): not
 * inside strings, quoted identifiers, dollar quotes or comments (the lexer sees to that), not inside
 * parentheses, and not inside the body of a SQL-standard function
 * ({@code CREATE [OR REPLACE] FUNCTION|PROCEDURE ... BEGIN ATOMIC ...; ...; END}). For the last rule psql
 * uses a heuristic, copied here so that both agree: when the statement's first identifiers are
 * {@code CREATE [OR REPLACE] FUNCTION|PROCEDURE}, every {@code BEGIN} outside parentheses opens a block,
 * {@code CASE} inside a block opens one too (it also ends with {@code END}), and {@code END} closes one.
 *
 * <p>Under T-SQL's rules ({@link LexicalRules.Builder#batchStatements}) a statement also ends where the next
 * one starts without a separator, and at a {@code GO} ({@link BatchBoundaries}).
 *
 * <p>A segment without tokens (only whitespace and comments) is an empty statement: not returned, but
 * counted. What follows the last semicolon is a statement only if it has tokens; a text without any token
 * and without a semicolon is one empty statement.
 *
 * <p>Used as a cursor, {@link #next()} hands the statement's tokens to a sink while it scans, so the text is
 * lexed once however the statements are then analysed.
 */
public final class StatementSplitter {

    // Ordinals, compared as the lexer reports them.
    private static final int SEMICOLON = TokenKind.SEMICOLON.ordinal();
    private static final int LPAREN = TokenKind.LPAREN.ordinal();
    private static final int RPAREN = TokenKind.RPAREN.ordinal();
    private static final int IDENT = TokenKind.IDENT.ordinal();
    private static final int NONE = Keyword.NONE.ordinal();
    private static final int BEGIN = Keyword.BEGIN.ordinal();
    private static final int CASE = Keyword.CASE.ordinal();
    private static final int END = Keyword.END.ordinal();
    private static final int CREATE = Keyword.CREATE.ordinal();
    private static final int OR = Keyword.OR.ordinal();
    private static final int REPLACE = Keyword.REPLACE.ordinal();
    private static final int FUNCTION = Keyword.FUNCTION.ordinal();
    private static final int PROCEDURE = Keyword.PROCEDURE.ordinal();

    private static final int GO = Keyword.GO.ordinal();

    private final SqlLexer lexer;
    private final TokenSink sink;
    /** T-SQL's statements that need no separator; null for the other dialects. */
    private final BatchBoundaries batch;
    /** Where the token that starts the next statement is, once a statement ended before it; else -1. */
    private int restart = -1;
    private int start;
    private int end;
    private int empty;
    private boolean sawSemicolon;
    private boolean done;

    // psql's per-statement state
    private int parenDepth;
    private int blockDepth;
    private int identifiers;
    /** Ordinals of the statement's first words. */
    private final int[] leading = new int[4];

    /** The statements of {@code text}, lexed by {@code rules}. */
    public static Split split(String text, LexicalRules rules) {
        StatementSplitter splitter = new StatementSplitter(text.toCharArray(), text.length(), rules, TokenSink.NONE);
        List<StatementSpan> spans = new ArrayList<>();
        while (splitter.next()) {
            spans.add(new StatementSpan(splitter.start(), splitter.end()));
        }
        return new Split(spans, splitter.emptyStatements());
    }

    /** A splitter of {@code text[0, length)}. */
    StatementSplitter(char[] text, int length, LexicalRules rules, TokenSink sink) {
        this.lexer = new SqlLexer(text, 0, length, rules);
        this.sink = sink;
        this.batch = rules.batchStatements ? new BatchBoundaries() : null;
    }

    /** Scans to the end of the next statement that has tokens; false when there is none. */
    boolean next() {
        if (done) {
            return false;
        }
        resetStatement();
        int first = -1;
        int last = -1;
        while (restart >= 0 ? lexer.nextFrom(restart) : lexer.next()) {
            restart = -1;
            int kind = lexer.kindOrdinal();
            boolean go = batch != null && kind == IDENT && parenDepth == 0 && lexer.keywordOrdinal() == GO;
            if (go || kind == SEMICOLON && parenDepth == 0 && blockDepth == 0
                    && (batch == null || !batch.wholeBatch())) {
                sawSemicolon = true;
                if (first >= 0) {
                    start = first;
                    end = last;
                    return true;
                }
                empty++;
                resetStatement();
                continue;
            }
            int word = lexer.keywordOrdinal();
            if (batch != null && parenDepth == 0 && endsBefore(kind, word, first >= 0)) {
                start = first;
                end = last;
                restart = lexer.start();
                return true;
            }
            if (kind == LPAREN) {
                parenDepth++;
            } else if (kind == RPAREN) {
                parenDepth = Math.max(0, parenDepth - 1);
            } else if (kind == IDENT) {
                identifier(word);
            }
            if (first < 0) {
                first = lexer.start();
            }
            last = lexer.end();
            sink.token(kind, word, lexer.start(), last);
        }
        done = true;
        if (first >= 0) {
            start = first;
            end = last;
            return true;
        }
        if (!sawSemicolon) {
            empty++;
        }
        return false;
    }

    /** Whether a top-level token of a T-SQL batch starts the next statement (see {@link BatchBoundaries}). */
    private boolean endsBefore(int kind, int word, boolean hasTokens) {
        if (kind != IDENT) {
            batch.other();
            return false;
        }
        return batch.startsNext(word, hasTokens);
    }

    int start() {
        return start;
    }

    int end() {
        return end;
    }

    int emptyStatements() {
        return empty;
    }

    private void identifier(int word) {
        if (identifiers < leading.length) {
            leading[identifiers] = word;
        }
        identifiers++;
        if (parenDepth == 0 && definesFunction()) {
            if (word == BEGIN) {
                blockDepth++;
            } else if (word == CASE) {
                blockDepth += blockDepth > 0 ? 1 : 0;
            } else if (word == END) {
                blockDepth -= blockDepth > 0 ? 1 : 0;
            }
        }
    }

    /** psqlscan.l: the first identifiers are CREATE [OR REPLACE] FUNCTION|PROCEDURE. */
    private boolean definesFunction() {
        if (leading[0] != CREATE) {
            return false;
        }
        if (routine(leading[1])) {
            return true;
        }
        return leading[1] == OR && leading[2] == REPLACE && routine(leading[3]);
    }

    private static boolean routine(int word) {
        return word == FUNCTION || word == PROCEDURE;
    }

    private void resetStatement() {
        if (batch != null) {
            batch.reset();
        }
        parenDepth = 0;
        blockDepth = 0;
        identifiers = 0;
        Arrays.fill(leading, NONE);
    }

    /** The statements of a text and how many empty ones were dropped. */
    public record Split(List<StatementSpan> statements, int emptyStatements) {
        public Split {
            statements = List.copyOf(statements);
        }
    }
}
