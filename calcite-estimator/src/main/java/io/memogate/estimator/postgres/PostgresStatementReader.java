package io.memogate.estimator.postgres;

import io.memogate.estimator.lexer.SettingChange;
import io.memogate.estimator.lexer.StatementReader;
import io.memogate.estimator.lexer.TokenStream;
import java.util.List;
import java.util.Optional;

/**
 * What PostgreSQL's own language says in a statement: SET, RESET and set_config ({@link SettingParser}), and
 * the queries a DO block's PL/pgSQL body runs ({@link DoStatement}, {@link PlpgsqlStatements}). Bodies in other
 * languages are not read. Stateless and thread-safe.
 */
final class PostgresStatementReader implements StatementReader {

    @Override
    public Optional<SettingChange> settingChange(TokenStream statement) {
        return SettingParser.of(statement);
    }

    @Override
    public CodeBlock codeBlock(TokenStream statement) {
        DoStatement block = DoStatement.of(statement);
        return new CodeBlock(block.language(), block.isPlpgsql()
                ? Optional.of(block.body().map(PlpgsqlStatements::of).orElse(List.of())) : Optional.empty());
    }
}
