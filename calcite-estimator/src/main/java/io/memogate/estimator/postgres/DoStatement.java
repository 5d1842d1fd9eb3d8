package io.memogate.estimator.postgres;

import io.memogate.estimator.lexer.Literals;
import io.memogate.estimator.lexer.TokenKind;
import io.memogate.estimator.lexer.TokenStream;
import java.util.Locale;
import java.util.Optional;

/**
 * What a {@code DO [LANGUAGE name] 'body' [LANGUAGE name]} statement runs: its body's text and language
 * ({@code plpgsql} unless it names another), read off its tokens.
 *
 * @param language the language's name in lower case
 * @param body the body's text, quotes removed; empty when the statement has none
 */
public record DoStatement(String language, Optional<String> body) {

    /** The DO statement whose tokens are {@code tokens}, its first one {@code DO}. */
    public static DoStatement of(TokenStream tokens) {
        String language = "plpgsql";
        String body = null;
        for (int i = 1; i < tokens.size(); i++) {
            if (tokens.isWord(i, "language") && i + 1 < tokens.size()) {
                int name = i + 1; // LANGUAGE plpgsql, or LANGUAGE 'plpgsql'
                language = (isString(tokens, name) ? Literals.string(tokens, name)
                        : Literals.identifier(tokens, name).orElse("?")).toLowerCase(Locale.ROOT);
            } else if (body == null && isString(tokens, i)) {
                body = Literals.string(tokens, i);
            }
        }
        return new DoStatement(language, Optional.ofNullable(body));
    }

    public boolean isPlpgsql() {
        return language.equals("plpgsql");
    }

    private static boolean isString(TokenStream tokens, int i) {
        return tokens.is(i, TokenKind.STRING) || tokens.is(i, TokenKind.DOLLAR_STRING);
    }
}
