package io.memogate.estimator.dialect;

import io.memogate.estimator.lexer.TokenKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One token of a statement a {@link Rewriter} writes again for Calcite, and what rewriters of several dialects do
 * with lists of them: find a clause's word at the top level, write a data change as the SELECT of its tables,
 * join the tokens into the text Calcite reads.
 */
public record WrittenToken(TokenKind kind, String text) {

    /** The token as a lower-case word; empty when it is no identifier. */
    public String word() {
        return kind == TokenKind.IDENT ? text.toLowerCase(Locale.ROOT) : "";
    }

    /** {@code SELECT 1 FROM tables rest}: what the optimizer joins for an UPDATE or DELETE of these tables. */
    public static List<WrittenToken> select(List<WrittenToken> tables, List<WrittenToken> rest) {
        List<WrittenToken> select = new ArrayList<>(tables.size() + rest.size() + 3);
        select.add(new WrittenToken(TokenKind.IDENT, "SELECT"));
        select.add(new WrittenToken(TokenKind.NUMBER, "1"));
        select.add(new WrittenToken(TokenKind.IDENT, "FROM"));
        select.addAll(tables);
        select.addAll(rest);
        return select;
    }

    /** The first of {@code words} at {@code from} or after it, outside parentheses; -1 when there is none. */
    public static int atDepth0(List<WrittenToken> tokens, int from, Set<String> words) {
        int depth = 0;
        for (int i = from; i < tokens.size(); i++) {
            TokenKind kind = tokens.get(i).kind();
            if (kind == TokenKind.LPAREN) {
                depth++;
            } else if (kind == TokenKind.RPAREN) {
                depth--;
            } else if (depth == 0 && words.contains(tokens.get(i).word())) {
                return i;
            }
        }
        return -1;
    }

    /** The statement's text: the tokens joined by spaces. */
    public static String text(List<WrittenToken> tokens) {
        StringBuilder text = new StringBuilder();
        for (WrittenToken token : tokens) {
            if (!text.isEmpty()) {
                text.append(' ');
            }
            text.append(token.text());
        }
        return text.toString();
    }
}
