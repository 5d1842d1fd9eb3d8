package io.memogate.estimator.sqlserver;

import io.memogate.estimator.lexer.TokenKind;
import io.memogate.estimator.lexer.TokenStream;
import java.util.Locale;
import java.util.Set;

/**
 * T-SQL's conversions as standard CASTs: {@code CONVERT(type, expr [, style])} and {@code TRY_CONVERT} become
 * {@code CAST(expr AS type)} (the style formats the value, the join is the same), and T-SQL's type names the
 * standard types Calcite knows, {@code (MAX)} dropped.
 */
final class TsqlConvert {

    private TsqlConvert() {
    }

    /**
     * Writes {@code CONVERT(type, expr[, style])}, whose parenthesis is at {@code open}, as a CAST; returns its
     * closing parenthesis.
     */
    static int write(TokenStream t, int open, TsqlTokens out, Set<String> notes) {
        int close = TsqlTokens.groupEnd(t, open);
        int typeEnd = commaAtDepth1(t, open + 1, close);
        if (typeEnd < 0) { // not T-SQL's form: left for the parser to judge
            out.add(TokenKind.IDENT, "CONVERT");
            return open - 1;
        }
        int exprEnd = commaAtDepth1(t, typeEnd + 1, close);
        exprEnd = exprEnd < 0 ? close : exprEnd;
        out.add(TokenKind.IDENT, "CAST");
        out.add(TokenKind.LPAREN, "(");
        for (int i = typeEnd + 1; i < exprEnd; i++) {
            i = TsqlRewriter.token(t, i, out, notes);
        }
        out.add(TokenKind.IDENT, "AS");
        for (int i = open + 1; i < typeEnd; i++) {
            i = type(t, i, out);
        }
        out.add(TokenKind.RPAREN, ")");
        return close;
    }

    /** Writes the type name at {@code i} as a standard one; returns the last token consumed. */
    static int type(TokenStream t, int i, TsqlTokens out) {
        String word = t.tokenText(i).toLowerCase(Locale.ROOT);
        out.add(t.kind(i), TsqlRewriter.TYPES.getOrDefault(word, t.tokenText(i)));
        if (t.is(i + 1, TokenKind.LPAREN) && t.isWord(i + 2, "max") && t.is(i + 3, TokenKind.RPAREN)) {
            return i + 3;
        }
        return i;
    }

    private static int commaAtDepth1(TokenStream t, int from, int close) {
        int depth = 0;
        for (int i = from; i < close; i++) {
            if (t.is(i, TokenKind.LPAREN)) {
                depth++;
            } else if (t.is(i, TokenKind.RPAREN)) {
                depth--;
            } else if (depth == 0 && t.is(i, TokenKind.COMMA)) {
                return i;
            }
        }
        return -1;
    }
}
