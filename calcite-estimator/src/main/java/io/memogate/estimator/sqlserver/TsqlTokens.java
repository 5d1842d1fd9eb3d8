package io.memogate.estimator.sqlserver;

import io.memogate.estimator.dialect.WrittenToken;
import io.memogate.estimator.lexer.TokenKind;
import io.memogate.estimator.lexer.TokenStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A T-SQL statement as {@link TsqlRewriter} writes it again, token by token, and the spans of the tokens it
 * reads that it drops whole (a parenthesized group, a clause, a name). Used by one rewrite on one thread.
 */
final class TsqlTokens {

    /** Words that end an OUTPUT clause: what follows it in INSERT, UPDATE, DELETE and MERGE. */
    private static final Set<String> AFTER_OUTPUT = Set.of("from", "where", "values", "select", "default", "exec",
            "execute", "option", "when");

    private final List<WrittenToken> tokens;

    TsqlTokens(int capacity) {
        this.tokens = new ArrayList<>(capacity);
    }

    void add(TokenKind kind, String text) {
        tokens.add(new WrittenToken(kind, text));
    }

    List<WrittenToken> tokens() {
        return tokens;
    }

    /** The last token written, as a lower-case word; empty when it is no word. */
    String lastWord() {
        return tokens.isEmpty() ? "" : tokens.getLast().word();
    }

    /** Whether the last token written names something (a table or its alias), so that a group after it is a hint. */
    boolean lastKindIsName() {
        return !tokens.isEmpty() && (tokens.getLast().kind() == TokenKind.QUOTED_IDENT
                || tokens.getLast().kind() == TokenKind.IDENT);
    }

    /** Whether the statement written so far starts with one of {@code words}, or with a WITH of CTEs. */
    boolean inStatement(String... words) {
        if (tokens.isEmpty()) {
            return false;
        }
        String first = tokens.getFirst().word();
        return first.equals("with") || List.of(words).contains(first);
    }

    /** The parenthesis closing the one at {@code open}; the last token when none does. */
    static int groupEnd(TokenStream t, int open) {
        int depth = 0;
        for (int i = open; i < t.size(); i++) {
            if (t.is(i, TokenKind.LPAREN)) {
                depth++;
            } else if (t.is(i, TokenKind.RPAREN) && --depth == 0) {
                return i;
            }
        }
        return t.size() - 1;
    }

    /** The last token of a clause starting at {@code from}: before the parenthesis closing its level, or the end. */
    static int clauseEnd(TokenStream t, int from) {
        int depth = 0;
        for (int i = from; i < t.size(); i++) {
            if (t.is(i, TokenKind.LPAREN)) {
                depth++;
            } else if (t.is(i, TokenKind.RPAREN) && --depth < 0 || depth == 0 && t.is(i, TokenKind.SEMICOLON)) {
                return i - 1;
            }
        }
        return t.size() - 1;
    }

    /** The last token of an OUTPUT clause starting at {@code from} (its INTO target and columns included). */
    static int outputEnd(TokenStream t, int from) {
        int depth = 0;
        for (int i = from + 1; i < t.size(); i++) {
            if (t.is(i, TokenKind.LPAREN)) {
                depth++;
            } else if (t.is(i, TokenKind.RPAREN)) {
                depth--;
            } else if (depth == 0 && (t.is(i, TokenKind.SEMICOLON) || t.is(i, TokenKind.IDENT)
                    && AFTER_OUTPUT.contains(t.tokenText(i).toLowerCase(Locale.ROOT)))) {
                return i - 1;
            }
        }
        return t.size() - 1;
    }

    /** The last token of a dotted name starting at {@code from} ({@code db.dbo.t}, {@code #t}). */
    static int nameEnd(TokenStream t, int from) {
        int i = from;
        while (t.is(i + 1, TokenKind.DOT) && (t.is(i + 2, TokenKind.IDENT) || t.is(i + 2, TokenKind.QUOTED_IDENT))) {
            i += 2;
        }
        return i;
    }
}
