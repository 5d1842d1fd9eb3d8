package io.memogate.estimator.lexer;

/**
 * Receives the tokens of the statement a {@link StatementSplitter} is scanning, in order: kind and word as
 * ordinals of {@link TokenKind} and {@link Keyword}, as a {@link TokenStream} stores them.
 */
interface TokenSink {

    TokenSink NONE = (kind, word, start, end) -> { };

    void token(int kind, int word, int start, int end);
}
