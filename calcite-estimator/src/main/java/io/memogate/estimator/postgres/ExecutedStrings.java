package io.memogate.estimator.postgres;

import io.memogate.estimator.lexer.Literals;
import io.memogate.estimator.lexer.TokenKind;
import io.memogate.estimator.lexer.TokenStream;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text a PL/pgSQL {@code EXECUTE} runs, when it can be read off the body: a string constant, constants
 * joined with {@code ||}, or {@code format()} of a constant format string. The server plans that text when
 * the EXECUTE runs, as it plans a statement sent by a client. In a format string, {@code %I} and {@code %s}
 * become a placeholder name and {@code %L} a NULL: the statement's join structure is in the constant part
 * (a dynamic table name still counts as one relation); a {@code %s} standing for more than a name leaves
 * a text the parser may refuse, which the estimator then bounds from its tokens. A string built from
 * variables is not read.
 */
final class ExecutedStrings {

    /** What {@code %I} and {@code %s} become: an identifier nothing else is called. */
    static final String PLACEHOLDER = "memogate_dynamic";

    /** PostgreSQL's format specifiers: {@code %[position$][-][width]type}, width also {@code *} or {@code *n$}. */
    private static final Pattern SPECIFIER = Pattern.compile("%(?:\\d+\\$)?-?(?:\\d+|\\*(?:\\d+\\$)?)?([sIL%])");

    private ExecutedStrings() {
    }

    /**
     * The text of the string expression in [from, to) of {@code ts} (after EXECUTE, up to its INTO or USING),
     * or empty when it is not a constant.
     */
    static Optional<String> of(TokenStream ts, int from, int to) {
        if (ts.isWord(from, "format") && ts.is(from + 1, TokenKind.LPAREN) && isString(ts, from + 2)
                && (ts.is(from + 3, TokenKind.COMMA) || ts.is(from + 3, TokenKind.RPAREN))) {
            return Optional.of(formatted(Literals.string(ts, from + 2)));
        }
        StringBuilder text = new StringBuilder();
        for (int i = from; i < to; i += 2) {
            if (!isString(ts, i)) {
                return Optional.empty();
            }
            text.append(Literals.string(ts, i));
            if (i + 1 < to && !(ts.is(i + 1, TokenKind.OPERATOR) && "||".equals(ts.tokenText(i + 1)))) {
                return Optional.empty();
            }
        }
        return text.isEmpty() ? Optional.empty() : Optional.of(text.toString());
    }

    /** {@code format}'s constant string with its specifiers replaced as the class comment says. */
    static String formatted(String format) {
        Matcher specifier = SPECIFIER.matcher(format);
        StringBuilder text = new StringBuilder();
        while (specifier.find()) {
            String replacement = switch (specifier.group(1)) {
                case "%" -> "%";
                case "L" -> "NULL";
                default -> PLACEHOLDER;
            };
            specifier.appendReplacement(text, Matcher.quoteReplacement(replacement));
        }
        specifier.appendTail(text);
        return text.toString();
    }

    private static boolean isString(TokenStream ts, int i) {
        return ts.is(i, TokenKind.STRING) || ts.is(i, TokenKind.DOLLAR_STRING);
    }
}
