package io.memogate.estimator.sqlserver;

import io.memogate.estimator.lexer.SettingChange;
import io.memogate.estimator.lexer.StatementReader;
import io.memogate.estimator.lexer.TokenStream;
import java.util.Optional;

/**
 * What the estimator reads off T-SQL statements in T-SQL's own language: nothing yet. The SET options a session
 * changes ({@code SET FORCEPLAN}, {@code SET ARITHABORT}, ...) do not change what the model weighs, and a batch
 * is no anonymous code block: its control-of-flow statements are statements of the batch, split by the lexer.
 */
final class TsqlStatementReader implements StatementReader {

    @Override
    public Optional<SettingChange> settingChange(TokenStream statement) {
        return Optional.empty();
    }

    @Override
    public CodeBlock codeBlock(TokenStream statement) {
        return new CodeBlock("T-SQL", Optional.empty());
    }
}
