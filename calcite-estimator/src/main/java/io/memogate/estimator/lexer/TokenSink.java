package io.memogate.estimator.lexer;

/** Receives the tokens of the statement a {@link StatementSplitter} is scanning, in order. */
interface TokenSink {

    TokenSink NONE = (kind, word, start, end) -> { };

    void token(TokenKind kind, Keyword word, int start, int end);
}
