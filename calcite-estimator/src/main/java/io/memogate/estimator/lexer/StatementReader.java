package io.memogate.estimator.lexer;

import java.util.List;
import java.util.Optional;

/**
 * What a dialect reads off a statement's tokens in its own language, where the shared analysis stops: which
 * setting a statement changes (PostgreSQL: SET, RESET, set_config) and which queries an anonymous code block
 * runs (PostgreSQL: DO with a PL/pgSQL body). Called once per statement that may be one, never per token.
 * Implementations are immutable and thread-safe, and never throw on any text.
 */
public interface StatementReader {

    /** The change the statement made of all tokens of the stream makes, if it is one the dialect knows. */
    Optional<SettingChange> settingChange(TokenStream statement);

    /** The code block a {@link StatementKind#DO} statement, all tokens of the stream, runs. */
    CodeBlock codeBlock(TokenStream statement);

    /**
     * What an anonymous code block runs.
     *
     * @param language the block's language in lower case, for messages
     * @param queries the queries its body has the server plan, in order; empty when the body's language is not
     *     one the dialect reads
     */
    record CodeBlock(String language, Optional<List<String>> queries) {
        public CodeBlock {
            queries = queries.map(List::copyOf);
        }
    }
}
