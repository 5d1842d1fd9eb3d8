package io.memogate.proxy.tds.session;

import java.util.Locale;
import java.util.Set;

/**
 * A T-SQL batch as the estimator's PostgreSQL reading understands it, with the same FROM items and join
 * predicates: [bracketed] names become "quoted" ones, N'...' literals plain '...' ones, and {@code TOP n},
 * {@code TOP (n)} (with PERCENT or WITH TIES) after SELECT are dropped, since they bound the rows, not the join
 * search. Strings, quoted names and comments are copied as they are. Statements of a batch separated by
 * semicolons are split by the estimator, which weighs the batch by its largest; statements T-SQL separates by
 * nothing but a new line are read as one, which only overstates.
 */
final class TsqlForEstimate {

    private static final Set<String> BEFORE_TOP = Set.of("SELECT", "DISTINCT", "ALL");

    private final String text;
    private final StringBuilder out;
    private int at;
    private String lastWord = "";

    private TsqlForEstimate(String text) {
        this.text = text;
        this.out = new StringBuilder(text.length());
    }

    static String rewrite(String text) {
        return new TsqlForEstimate(text).run();
    }

    private String run() {
        while (at < text.length()) {
            char c = text.charAt(at);
            if (c == '\'') {
                copyQuoted('\'');
            } else if (c == '"') {
                copyQuoted('"');
            } else if (c == '[') {
                bracketed();
            } else if (c == '-' && next() == '-') {
                copyUntil("\n");
            } else if (c == '/' && next() == '*') {
                copyUntil("*/");
            } else if ((c == 'N' || c == 'n') && next() == '\'' && !wordBefore()) {
                at++; // N'...': a Unicode literal is a literal
            } else if (Character.isLetter(c) || c == '_' || c == '#' || c == '@') {
                word();
            } else {
                if (!Character.isWhitespace(c)) {
                    lastWord = "";
                }
                out.append(c);
                at++;
            }
        }
        return out.toString();
    }

    private char next() {
        return at + 1 < text.length() ? text.charAt(at + 1) : 0;
    }

    private boolean wordBefore() {
        return at > 0 && isWordPart(text.charAt(at - 1));
    }

    private static boolean isWordPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '#' || c == '@' || c == '$';
    }

    private void word() {
        int start = at;
        while (at < text.length() && isWordPart(text.charAt(at))) {
            at++;
        }
        String word = text.substring(start, at).toUpperCase(Locale.ROOT);
        if (word.equals("TOP") && BEFORE_TOP.contains(lastWord) && countFollows()) {
            skipTop();
            return;
        }
        out.append(text, start, at);
        lastWord = word;
    }

    /** TOP is followed by its count: a number, a variable or a parenthesized expression. */
    private boolean countFollows() {
        int next = at;
        while (next < text.length() && Character.isWhitespace(text.charAt(next))) {
            next++;
        }
        return next < text.length() && (Character.isDigit(text.charAt(next)) || text.charAt(next) == '('
                || text.charAt(next) == '@');
    }

    /** TOP's count (a number, a variable or a parenthesized expression), then PERCENT and WITH TIES if there. */
    private void skipTop() {
        skipSpace();
        if (at < text.length() && text.charAt(at) == '(') {
            int depth = 0;
            do {
                char c = text.charAt(at++);
                depth += c == '(' ? 1 : c == ')' ? -1 : 0;
            } while (depth > 0 && at < text.length());
        } else {
            while (at < text.length() && isWordPart(text.charAt(at))) {
                at++;
            }
        }
        int before = at;
        skipSpace();
        if (!skipWord("PERCENT")) {
            at = before;
        }
        before = at;
        skipSpace();
        if (skipWord("WITH")) {
            skipSpace();
            if (!skipWord("TIES")) {
                at = before;
            }
        } else {
            at = before;
        }
        out.append(' ');
    }

    private void skipSpace() {
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
            at++;
        }
    }

    private boolean skipWord(String word) {
        int end = at + word.length();
        if (end <= text.length() && text.regionMatches(true, at, word, 0, word.length())
                && (end == text.length() || !isWordPart(text.charAt(end)))) {
            at = end;
            return true;
        }
        return false;
    }

    private void copyQuoted(char quote) {
        int start = at++;
        while (at < text.length()) {
            if (text.charAt(at++) == quote) {
                if (at < text.length() && text.charAt(at) == quote) {
                    at++;
                } else {
                    break;
                }
            }
        }
        out.append(text, start, at);
        lastWord = "";
    }

    /** [name] (]] inside stands for one ]) as "name" (a " inside doubled). */
    private void bracketed() {
        StringBuilder name = new StringBuilder();
        at++;
        while (at < text.length()) {
            char c = text.charAt(at++);
            if (c == ']') {
                if (at < text.length() && text.charAt(at) == ']') {
                    at++;
                } else {
                    break;
                }
            }
            name.append(c == '"' ? "\"\"" : String.valueOf(c));
        }
        out.append('"').append(name).append('"');
        lastWord = "";
    }

    private void copyUntil(String end) {
        int found = text.indexOf(end, at + 2);
        int stop = found < 0 ? text.length() : found + end.length();
        out.append(text, at, stop);
        at = stop;
    }
}
