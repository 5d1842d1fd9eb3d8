package io.memogate.estimator.lexer;

import java.util.Optional;

/** The values of identifier and string tokens, as the server reads them, for names and setting values. */
public final class Literals {

    private Literals() {
    }

    /** An identifier's name: unquoted in lower case, quoted as written; empty for other tokens. */
    public static Optional<String> identifier(TokenStream ts, int i) {
        if (ts.is(i, TokenKind.IDENT)) {
            return Optional.of(lower(ts.text(), ts.start(i), ts.end(i)));
        }
        if (ts.is(i, TokenKind.QUOTED_IDENT)) {
            String t = ts.tokenText(i);
            String quote = t.substring(t.length() - 1); // the closing quote: " or the dialect's own
            int open = t.indexOf(quote.equals("]") ? "[" : quote); // T-SQL's [name] opens with another
            return Optional.of(t.substring(open + 1, t.length() - 1).replace(quote + quote, quote));
        }
        return Optional.empty();
    }

    /** A dotted name {@code a.b.c} with its parts as {@link #identifier} reads them, and the token after it. */
    public record Name(String text, int after) {
    }

    public static Optional<Name> qualifiedName(TokenStream ts, int i) {
        Optional<String> part = identifier(ts, i);
        if (part.isEmpty()) {
            return Optional.empty();
        }
        StringBuilder name = new StringBuilder(part.get());
        i++;
        while (ts.is(i, TokenKind.DOT) && identifier(ts, i + 1).isPresent()) {
            name.append('.').append(identifier(ts, i + 1).get());
            i += 2;
        }
        return Optional.of(new Name(name.toString(), i));
    }

    /**
     * The value of a string token: quotes removed, {@code ''} as one quote, continuation segments joined,
     * backslash escapes applied where the stream's rules take them ({@code E''} strings for PostgreSQL; the
     * common single-character ones; others are kept as written). Dollar quotes lose their delimiters.
     */
    public static String string(TokenStream ts, int i) {
        String t = ts.tokenText(i);
        if (ts.is(i, TokenKind.DOLLAR_STRING)) {
            int tag = t.indexOf('$', 1) + 1;
            return t.substring(tag, t.length() - tag);
        }
        boolean escapes = ts.rules().escapes(t.charAt(0));
        char quote = t.charAt(0) == '"' ? '"' : '\'';
        StringBuilder value = new StringBuilder(t.length());
        boolean inside = false;
        for (int p = t.indexOf(quote); p < t.length(); p++) {
            char c = t.charAt(p);
            if (!inside) {
                // between continuation segments: whitespace and -- comments, which may hold a quote
                if (c == '-' && p + 1 < t.length() && t.charAt(p + 1) == '-') {
                    while (p + 1 < t.length() && t.charAt(p + 1) != '\n' && t.charAt(p + 1) != '\r') {
                        p++;
                    }
                }
                inside = c == quote;
            } else if (c == quote && p + 1 < t.length() && t.charAt(p + 1) == quote) {
                value.append(quote);
                p++;
            } else if (c == quote) {
                inside = false;
            } else if (c == '\\' && escapes && p + 1 < t.length()) {
                value.append(escaped(t.charAt(++p)));
            } else {
                value.append(c);
            }
        }
        return value.toString();
    }

    private static char escaped(char c) {
        return switch (c) {
            case 'b' -> '\b';
            case 'f' -> '\f';
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            default -> c;
        };
    }

    static String lower(String s, int start, int end) {
        char[] chars = new char[end - start];
        for (int p = start; p < end; p++) {
            chars[p - start] = Keyword.lower(s.charAt(p));
        }
        return new String(chars);
    }
}
