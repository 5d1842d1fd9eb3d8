package io.memogate.estimator.lexer;

/**
 * Where one statement lies in the text it was split from: from its first token to the end of its last,
 * without the surrounding whitespace and comments and without the terminating semicolon.
 */
public record StatementSpan(int start, int end) {

    public StatementSpan {
        if (start < 0 || end < start) {
            throw new IllegalArgumentException("span [" + start + ", " + end + ") is not a range");
        }
    }

    /** The statement's text out of the text it was split from. */
    public String of(String text) {
        return text.substring(start, end);
    }
}
